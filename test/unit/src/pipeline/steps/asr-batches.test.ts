/**
 * Long media's speech recognition in batches (src/pipeline/steps/asr-batches).
 */
import { describe, expect, it } from 'vitest';
import { asrBatches, joinAsrOutputs, pcmRange } from '../../../../../src/pipeline/steps/asr-batches.js';

const seg = (start: number, end: number) => ({ start, end });

describe('asrBatches', () => {
  it('should keep segments that fit in one request as one batch over the whole audio', () => {
    expect(asrBatches([seg(1, 2), seg(3, 4)])).toEqual([
      { fromSec: 0, toSec: null, segments: [seg(1, 2), seg(3, 4)] },
    ]);
    expect(asrBatches([])).toEqual([]);
  });

  it('should cut at the middle of the silence when the span or the count is reached, in batch time', () => {
    expect(asrBatches([seg(0, 10), seg(20, 30), seg(50, 60)], { maxSec: 40 })).toEqual([
      { fromSec: 0, toSec: 40, segments: [seg(0, 10), seg(20, 30)] },
      { fromSec: 40, toSec: null, segments: [seg(10, 20)] },
    ]);
    const many = Array.from({ length: 5 }, (_, i) => seg(i * 2, i * 2 + 1));
    expect(asrBatches(many, { maxSegments: 2 }).map((b) => [b.fromSec, b.toSec, b.segments.length])).toEqual([
      [0, 3.5, 2],
      [3.5, 7.5, 2],
      [7.5, null, 1],
    ]);
  });

  it('should keep every batch of 30 min of short segments under the header and body limits', () => {
    const segments = Array.from({ length: 900 }, (_, i) => seg(i * 2 + 0.123, i * 2 + 1.456));
    const batches = asrBatches(segments);
    expect(batches.flatMap((b) => b.segments)).toHaveLength(900);
    for (const b of batches) {
      expect(JSON.stringify(b.segments).length).toBeLessThan(16 * 1024 - 1024);
      expect((b.toSec ?? 1800) - b.fromSec).toBeLessThanOrEqual(20 * 60 + 2);
    }
  });
});

describe('pcmRange', () => {
  it('should cover a batch of the 16 kHz s16le PCM from its first sample, to the end when it is the last', () => {
    expect(pcmRange({ fromSec: 40, toSec: 80.5, segments: [] })).toEqual({
      offset: 1_280_000,
      length: 1_296_000,
    });
    expect(pcmRange({ fromSec: 80.5, toSec: null, segments: [] })).toEqual({ offset: 2_576_000 });
  });

  it('should cut batches on the sample grid, so a range starts exactly at its batch', () => {
    const [, second] = asrBatches([seg(0, 10.00001), seg(10.00004, 20)], { maxSec: 15 });
    expect(second.fromSec * 16_000).toBe(Math.round(second.fromSec * 16_000));
    expect(pcmRange(second).offset).toBe(second.fromSec * 32_000);
  });
});

describe('joinAsrOutputs', () => {
  it('should shift words and silences to media time and join engines and warnings', () => {
    const word = (w: string, start: number) => ({ word: w, start, end: start + 0.5, confidence: 0.9 });
    expect(
      joinAsrOutputs([
        {
          fromSec: 0,
          output: { engine: 'faster-whisper', model: 'base', words: [word('a', 1)], warnings: ['w'] },
        },
        {
          fromSec: 40,
          output: { engine: 'pocketsphinx', words: [word('b', 2)], warnings: ['w'], silences: [seg(0, 1)] },
        },
      ]),
    ).toEqual({
      engine: 'faster-whisper+pocketsphinx',
      model: 'base',
      words: [word('a', 1), word('b', 42)],
      warnings: ['w'],
      silences: [seg(40, 41)],
    });
  });
});
