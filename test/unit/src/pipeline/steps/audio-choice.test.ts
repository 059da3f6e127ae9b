import { describe, expect, it } from 'vitest';
import {
  audioCandidates,
  clearestCandidate,
  MAX_AUDIO_STREAMS_TRIED,
  OTHER_AUDIO_MARGIN_DB,
} from '../../../../../src/contract/audio-choice.js';
import {
  audioChoiceWarning,
  LoudEndMeter,
  tooQuietForSpeech,
} from '../../../../../src/pipeline/steps/audio-choice.js';
import { loudLevelDbfs, TOO_QUIET_DBFS } from '../../../../../wasm/vad/level.js';

/** A tone of `amplitude` (of full scale) for `seconds` at 16 kHz. */
const tone = (seconds: number, amplitude: number) =>
  Int16Array.from({ length: seconds * 16_000 }, (_, i) => Math.round(amplitude * 32_767 * Math.sin(i / 7)));

const bytesOf = (pcm: Int16Array) => new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);

describe('LoudEndMeter', () => {
  it("should measure the loudest window's loud end, however the bytes are chunked", () => {
    // Three 2 s windows: quiet, loud, quiet; chunks of odd sizes split samples between them.
    const pcm = new Int16Array(6 * 16_000);
    pcm.set(tone(2, 0.01), 0);
    pcm.set(tone(2, 0.5), 2 * 16_000);
    pcm.set(tone(2, 0.01), 4 * 16_000);
    const bytes = bytesOf(pcm);
    const meter = new LoudEndMeter(2 * 16_000);
    for (let at = 0, size = 1; at < bytes.length; at += size, size = (size * 7 + 3) % 5001)
      meter.push(bytes.subarray(at, at + size));
    expect(meter.loudEndDbfs()).toBeCloseTo(loudLevelDbfs(pcm.subarray(2 * 16_000, 4 * 16_000)), 9);
  });

  it('should measure a last window shorter than the others, and nothing as -Infinity', () => {
    const meter = new LoudEndMeter(16_000);
    meter.push(bytesOf(new Int16Array(16_000)));
    meter.push(bytesOf(tone(0.5, 0.1)));
    expect(meter.loudEndDbfs()).toBeCloseTo(loudLevelDbfs(tone(0.5, 0.1)), 9);
    expect(new LoudEndMeter(16_000).loudEndDbfs()).toBe(-Infinity);
  });
});

describe('which audio the analysis hears', () => {
  const audio = { codec: 'aac', sample_rate: 48_000 };
  it("should try the first stream's average, its difference when stereo, then the other streams", () => {
    expect(audioCandidates({ ...audio, channels: 1 })).toEqual([{ stream: 0, mix: 'mid' }]);
    expect(audioCandidates({ ...audio, channels: 2, streams: 1 })).toEqual([
      { stream: 0, mix: 'mid' },
      { stream: 0, mix: 'side' },
    ]);
    expect(audioCandidates({ ...audio, channels: 1, streams: 3 })).toEqual([
      { stream: 0, mix: 'mid' },
      { stream: 1, mix: 'mid' },
      { stream: 2, mix: 'mid' },
    ]);
    expect(audioCandidates({ ...audio, channels: 1, streams: 500 })).toHaveLength(MAX_AUDIO_STREAMS_TRIED);
  });

  it('should go on only while the audio is too quiet for speech (digital silence is)', () => {
    expect(tooQuietForSpeech(-Infinity)).toBe(true);
    expect(tooQuietForSpeech(TOO_QUIET_DBFS - 5)).toBe(true);
    expect(tooQuietForSpeech(-20)).toBe(false);
  });

  it('should keep another candidate only when it is clearly louder than the first', () => {
    expect(clearestCandidate([-20])).toBe(0);
    expect(clearestCandidate([-Infinity, -15])).toBe(1); // cancelled: the difference
    expect(clearestCandidate([-60, -60 + OTHER_AUDIO_MARGIN_DB])).toBe(1);
    expect(clearestCandidate([-60, -55])).toBe(0); // a quiet recording, not a cancelled one
    expect(clearestCandidate([-Infinity, -Infinity])).toBe(0); // silence either way
    expect(clearestCandidate([-Infinity, -Infinity, -18])).toBe(2); // speech on the second track
    expect(clearestCandidate([-70, -45, -20])).toBe(2);
  });

  it('should say which audio was heard when it is not the first stream averaged', () => {
    expect(audioChoiceWarning({ stream: 0, mix: 'mid' })).toBeNull();
    expect(audioChoiceWarning({ stream: 0, mix: 'side' })).toMatch(/phase-inverted/);
    expect(audioChoiceWarning({ stream: 1, mix: 'mid' })).toMatch(
      /^the first audio track is silent.*audio track 2$/,
    );
    expect(audioChoiceWarning({ stream: 2, mix: 'mid', reason: 'no_speech' })).toBe(
      'no speech was found on the first audio track: the speech was analysed from audio track 3',
    );
  });
});
