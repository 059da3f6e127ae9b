/**
 * The words kept from Whisper's segments (pure): the text rule against phrase loops cuts a line
 * repeated in a segment without word times, but not one whose repeats Whisper placed over the audio
 * (librivox_sns_0880 said four times, as the worker reported it).
 */
import { describe, expect, it } from 'vitest';
import {
  joinWordPieces,
  keepsRedecode,
  keptWords,
} from '../../../../../../containers/media/engines/asr/faster-whisper.js';
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

describe("Whisper's word pieces", () => {
  it('should join a piece without a leading space to the word before it', () => {
    const w = (word: string, start: number, end: number, probability = 0.9) => ({
      word,
      start,
      end,
      probability,
    });
    expect(
      joinWordPieces([
        w(' Donc', 0, 0.3),
        w(' c', 0.3, 0.4),
        w("'est", 0.4, 0.6, 0.5),
        w(' la', 0.6, 0.7),
        w(' grand', 0.7, 1),
        w('-mère.', 1, 1.4),
      ]),
    ).toEqual([
      { word: 'Donc', start: 0, end: 0.3, confidence: 0.9 },
      { word: "c'est", start: 0.3, end: 0.6, confidence: 0.5 },
      { word: 'la', start: 0.6, end: 0.7, confidence: 0.9 },
      { word: 'grand-mère.', start: 0.7, end: 1.4, confidence: 0.9 },
    ]);
    // The first word of a segment may come without a space: it starts a word all the same.
    expect(joinWordPieces([w('Hallo', 0, 0.4)]).map((x) => x.word)).toEqual(['Hallo']);
  });

  it('should keep each piece of a language written without spaces as a word, punctuation joined', () => {
    // Japanese as faster-whisper times it (Picovoice's test_ja: 客観的実在の…): no piece has a space.
    const w = (word: string, start: number, end: number) => ({ word, start, end, probability: 0.9 });
    const ja = [
      w('客', 0.8, 1.0),
      w('観', 1.0, 1.22),
      w('的', 1.31, 1.5),
      w('で', 1.5, 1.7),
      w('ある', 1.7, 2.0),
      w('。', 2.0, 2.0),
    ];
    expect(joinWordPieces(ja, 'ja')).toEqual([
      { word: '客', start: 0.8, end: 1.0, confidence: 0.9 },
      { word: '観', start: 1.0, end: 1.22, confidence: 0.9 },
      { word: '的', start: 1.31, end: 1.5, confidence: 0.9 },
      { word: 'で', start: 1.5, end: 1.7, confidence: 0.9 },
      { word: 'ある。', start: 1.7, end: 2.0, confidence: 0.9 },
    ]);
    // Not told the language, the pieces join into one word spanning the sentence (the old behaviour).
    expect(joinWordPieces(ja)).toHaveLength(1);
  });
});

describe('keepsRedecode', () => {
  // mfa_uhuh.flac as Whisper decoded it with Intel MKL's kernels: the first decode loops on "uh"
  // after "Montreal"; a second decode may come back as noise the filters drop whole.
  const decoded = (text: string, avg_logprob: number, compression_ratio: number): WhisperSegment => ({
    text,
    start: 0,
    end: 7.5,
    avg_logprob,
    no_speech_prob: 0.04,
    compression_ratio,
    words: [],
  });
  const looping = decoded(' Montreal,' + ' uh,'.repeat(60), -0.07, 18.83);

  it('should keep the second decode when the filters keep as many of its words', () => {
    expect(
      keepsRedecode([looping], [decoded(' Montreal, uh, uh, uh, uh, uh... Force divider.', -0.91, 1.18)]),
    ).toBe(true);
  });

  it('should keep the first decode when the second one is dropped whole', () => {
    const noise = decoded(' Montreal uh, uh, horse-de-liner, the the of of.', -1.8, 1.9);
    expect(keptWords([noise])).toEqual([]);
    expect(keepsRedecode([looping], [noise])).toBe(false);
    expect(keptWords([looping]).map((w) => w.word)[0]).toBe('Montreal,');
  });
});
