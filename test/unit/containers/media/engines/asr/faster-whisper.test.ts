/**
 * The words kept from Whisper's segments (pure): the text rule against phrase loops cuts a line
 * repeated in a segment without word times, but not one whose repeats Whisper placed over the audio
 * (librivox_sns_0880 said four times, as the worker reported it).
 */
import { describe, expect, it } from 'vitest';
import { keptWords } from '../../../../../../containers/media/engines/asr/faster-whisper.js';
import type { WhisperSegment } from '../../../../../../containers/media/engines/asr/whisper-filter.js';

const LINE = ['He', 'was', 'not', 'an', 'ill-disposed', 'young', 'man.'];
const FOUR_TIMES = Array.from({ length: 4 }, () => LINE).flat();

function segment(timed: boolean): WhisperSegment {
  return {
    text: ' ' + FOUR_TIMES.join(' '),
    start: 0,
    end: 13.6,
    avg_logprob: -0.07,
    no_speech_prob: 0.01,
    compression_ratio: 3.04,
    // Each repeat over its own 3.4 s, as Whisper's cross-attention placed them.
    words: timed
      ? FOUR_TIMES.map((word, i) => ({
          word: ` ${word}`,
          start: i * 0.45,
          end: i * 0.45 + 0.4,
          probability: 0.9,
        }))
      : [],
  };
}

describe('keptWords', () => {
  it('should keep every repeat Whisper placed over the audio', () => {
    expect(keptWords([segment(true)]).map((w) => w.word)).toEqual(FOUR_TIMES);
  });

  it('should cut repeats only the text shows, as a loop (and drop the loop segment itself)', () => {
    const words = keptWords([{ ...segment(false), compression_ratio: 2 }]).map((w) => w.word);
    expect(words).toEqual(LINE);
    expect(keptWords([segment(false)])).toEqual([]);
  });
});
