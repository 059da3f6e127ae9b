import { describe, expect, it } from 'vitest';
import { extractPcm16k } from '../ffmpeg/index.js';
import { detectSpeech, speechProbabilities, speechSegmentsFromProbabilities } from '../vad/index.js';
import '../vad/legacy-model.js';
import { mediaBytes, timed } from './helpers.js';

const totalSpeech = (segments: { start: number; end: number }[]) =>
  segments.reduce((sum, s) => sum + s.end - s.start, 0);

describe('detectSpeech', () => {
  it('should find the phrases of jfk.wav', async () => {
    const { pcm } = await extractPcm16k(await mediaBytes('speech/jfk.wav'));
    const segments = await detectSpeech(pcm);
    console.log(
      'jfk.wav segments',
      JSON.stringify(segments),
      'speech',
      totalSpeech(segments).toFixed(2),
      's',
    );
    expect(segments.length).toBeGreaterThanOrEqual(3);
    expect(totalSpeech(segments)).toBeGreaterThan(7);
    expect(totalSpeech(segments)).toBeLessThan(10.5);
    for (const [i, s] of segments.entries()) {
      expect(s.end).toBeGreaterThan(s.start);
      if (i > 0) expect(s.start).toBeGreaterThanOrEqual(segments[i - 1].end);
    }
    expect(segments.at(-1)!.end).toBeLessThanOrEqual(11);
  });

  it('should find the same phrases in jfk.wav recorded 20 dB quieter', async () => {
    // Silero alone loses "my fellow Americans, ask not" at this level; the VAD's input gain
    // (vad/level.ts) brings it back.
    const { pcm } = await extractPcm16k(await mediaBytes('speech/jfk.wav'));
    const quiet = Int16Array.from(pcm, (s) => Math.round(s / 10));
    const loud = await detectSpeech(pcm);
    const segments = await detectSpeech(quiet);
    expect(Math.abs(totalSpeech(segments) - totalSpeech(loud))).toBeLessThan(0.5);
    // "ask" is its own short phrase at 3.3-3.8 s.
    expect(segments.some((s) => s.start < 3.6 && s.end > 3.6)).toBe(true);
    const unaided = await detectSpeech(quiet, { normalizeLevel: false });
    console.log(
      'jfk.wav −20 dB speech',
      totalSpeech(segments).toFixed(2),
      's, without the gain',
      totalSpeech(unaided).toFixed(2),
      's',
    );
  });

  it('should accept Float32Array input and give the same segments', async () => {
    const { pcm } = await extractPcm16k(await mediaBytes('speech/jfk.wav'));
    const floats = Float32Array.from(pcm, (s) => s / 32768);
    expect(await detectSpeech(floats)).toEqual(await detectSpeech(pcm));
  });

  it('should find the same phrases with the legacy (v4) model', async () => {
    const { pcm } = await extractPcm16k(await mediaBytes('speech/jfk.wav'));
    const segments = await detectSpeech(pcm, { model: 'legacy' });
    console.log(
      'jfk.wav segments (legacy)',
      JSON.stringify(segments),
      'speech',
      totalSpeech(segments).toFixed(2),
      's',
    );
    expect(segments.length).toBeGreaterThanOrEqual(3);
    expect(totalSpeech(segments)).toBeGreaterThan(7);
    expect(totalSpeech(segments)).toBeLessThan(10.5);
    const silence = await extractPcm16k(await mediaBytes('gen/silence_10s.wav'));
    expect(await detectSpeech(silence.pcm, { model: 'legacy' })).toEqual([]);
  });

  it('should find no speech in silence or in an empty input', async () => {
    const { pcm } = await extractPcm16k(await mediaBytes('gen/silence_10s.wav'));
    expect(pcm.length).toBe(160_000);
    expect(await detectSpeech(pcm)).toEqual([]);
    expect(await detectSpeech(new Int16Array(0))).toEqual([]);
  });

  it('should give the same answer to concurrent calls', async () => {
    const { pcm } = await extractPcm16k(await mediaBytes('speech/jfk.wav'));
    const [a, b] = await Promise.all([detectSpeech(pcm), detectSpeech(pcm)]);
    expect(a).toEqual(b);
  });

  it('should reject other sample rates', async () => {
    await expect(detectSpeech(new Int16Array(10), { sampleRate: 8000 as 16000 })).rejects.toThrow(
      /sampleRate/,
    );
  });

  it('should stay close to the sequential run when batching long audio', async () => {
    const { pcm } = await extractPcm16k(await mediaBytes('gen/jfk_60s.wav'));
    const floats = Float32Array.from(pcm, (s) => s / 32768);
    const sequential = await timed(() => speechProbabilities(floats));
    const batched = await timed(() => speechProbabilities(floats, { maxBatch: 16 }));
    let maxDiff = 0;
    let flips = 0;
    for (let i = 0; i < floats.length / 512; i++) {
      maxDiff = Math.max(maxDiff, Math.abs(sequential.result[i] - batched.result[i]));
      if (sequential.result[i] >= 0.5 !== batched.result[i] >= 0.5) flips += 1;
    }
    const segments = (p: Float32Array) => speechSegmentsFromProbabilities(p, 0.032, pcm.length / 16000);
    console.log(
      `[bench] VAD 60 s sequential ${sequential.ms.toFixed(0)} ms, batched ${batched.ms.toFixed(0)} ms; max |Δp| ${maxDiff.toFixed(4)}, decisions flipped ${flips}/${sequential.result.length}`,
    );
    // Approximate by design (batch-plan.ts): a few % of decisions, the same speech overall.
    expect(flips / sequential.result.length).toBeLessThan(0.08);
    const speech = (p: Float32Array) => totalSpeech(segments(p));
    expect(Math.abs(speech(batched.result) - speech(sequential.result))).toBeLessThan(
      0.05 * speech(sequential.result),
    );
  });
});
