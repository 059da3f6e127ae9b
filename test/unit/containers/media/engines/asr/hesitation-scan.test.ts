/**
 * Pure: the hesitations Whisper's scan found likely are put into the kept decode's words at the
 * same place, never twice, never where one is written, and never from a malformed scan.
 */
import { describe, expect, it } from 'vitest';
import {
  scanOf,
  SCANNED_HESITATION_MIN,
  withScannedHesitations,
} from '../../../../../../containers/media/engines/asr/hesitation-scan.js';
import type { TimedWord } from '../../../../../../src/contract/media.js';

const w = (word: string, start: number): TimedWord => ({ word, start, end: start + 0.2, confidence: 0.9 });
const text = (words: readonly TimedWord[]) => words.map((x) => x.word).join(' ');
/** A scan from [word, probability of a hesitation before it] pairs. */
const scanned = (...pairs: Array<[string, number]>) =>
  pairs.map(([word, hesitation]) => ({ word, hesitation }));

describe('hesitation scan (pure)', () => {
  const kept = [w('Hi,', 0), w('John.', 0.3), w("I'd", 0.8), w('like', 1), w('to', 1.2), w('meet.', 1.4)];

  it('should put a hesitation before the word the scan says follows one, timed at that word', () => {
    const scan = scanned(
      [' Hi,', 0.01],
      [' John.', 0.02],
      [" I'd", 0.35],
      [' like', 0.01],
      [' to', 0.09],
      [' meet.', 0],
    );
    const out = withScannedHesitations(kept, scan);
    expect(text(out)).toBe("Hi, John. uh I'd like to meet.");
    expect(out[2]).toEqual({ word: 'uh', start: 0.8, end: 0.8, confidence: 0.35 });
    // Below the threshold nothing is added.
    expect(withScannedHesitations(kept, scan, 0.5)).toEqual(kept);
    expect(SCANNED_HESITATION_MIN).toBeGreaterThan(0.09);
  });

  it('should place by the words both decodes share, whatever the other decode wrote', () => {
    // The greedy scan spelled one word differently and wrote one more word.
    const scan = scanned(
      [' Hi', 0],
      [' Jon,', 0],
      [' well', 1],
      [" I'd", 0],
      [' like', 0.6],
      [' to', 0],
      [' meet', 0],
    );
    // "well" matches nothing kept: its hesitation has no place. "like" does.
    expect(text(withScannedHesitations(kept, scan))).toBe("Hi, John. I'd uh like to meet.");
  });

  it('should not add a hesitation where Whisper already wrote one', () => {
    const written = [w('So,', 0), w('um,', 0.3), w('yes.', 0.8)];
    const scan = scanned([' So,', 0], [' um,', 0.9], [' yes.', 0.9]);
    expect(withScannedHesitations(written, scan)).toEqual(written);
  });

  it('should read only a well-formed scan', () => {
    expect(scanOf(undefined)).toEqual([]);
    expect(scanOf('uh')).toEqual([]);
    expect(
      scanOf([{ word: ' a', hesitation: 0.2 }, { word: 1, hesitation: 0.2 }, null, { word: ' b' }]),
    ).toEqual([{ word: ' a', hesitation: 0.2 }]);
    expect(scanOf([{ word: ' a', hesitation: Number.NaN }])).toEqual([]);
  });
});
