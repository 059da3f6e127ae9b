/**
 * The voice bench's scoring (bench/tts): the recogniser's spellings of times and years, and the
 * error stretches with the check whether another decoding of the same audio recovers them.
 */
import { describe, expect, it } from 'vitest';
import { errorSpans, recoveredBy, tallySpans } from '../../../bench/tts/errors.js';
import { sameFormat, sameYearFormat } from '../../../bench/tts/score.js';

const words = (s: string) => s.split(' ');

describe('sameFormat', () => {
  it('should write a year the reference has the way it has it, and nothing else', () => {
    expect(sameYearFormat('on Tuesday, March 3rd, 2026.', 'on Tuesday, March 3rd, 20.26.')).toBe(
      'on Tuesday, March 3rd, 2026.',
    );
    expect(sameYearFormat('Sales grew by 12.5%.', 'Sales grew by 20.26%.')).toBe('Sales grew by 20.26%.'); // no year in the reference
    expect(sameYearFormat('born in 1948', 'born in 19.84')).toBe('born in 19.84'); // a different year stays wrong
    expect(sameFormat('at 7:15 in 1999', 'at 7.15 in 19.99')).toBe('at 7:15  in 1999');
  });
});

describe('errorSpans', () => {
  it('should give the unmatched stretches between matched words, with where they start', () => {
    const ref = words('doctor amara okonkwo counted forty two samples');
    const hyp = words('docker and mara conquo counted forty samples');
    expect(errorSpans(ref, hyp)).toEqual([
      { ref: 'doctor amara okonkwo', hyp: 'docker and mara conquo', at: 0 },
      { ref: 'two', hyp: '', at: 5 },
    ]);
    expect(errorSpans(ref, ref)).toEqual([]);
    expect(errorSpans(words('a b'), words('a uh b'))).toEqual([{ ref: '', hyp: 'uh', at: 1 }]);
  });

  it('should tell a stretch another decoding gets right from one it does not', () => {
    const ref = words('is the train to portland still leaving');
    const [greedy] = errorSpans(ref, words('is the train important still leaving'));
    expect(recoveredBy(ref, ref, greedy)).toBe(true);
    expect(recoveredBy(ref, words('is the train to portlund still leaving'), greedy)).toBe(false);
    const [inserted] = errorSpans(words('a b'), words('a uh b'));
    expect(recoveredBy(words('a b'), words('a b'), inserted)).toBe(true);
    expect(recoveredBy(words('a b'), words('a uh b'), inserted)).toBe(false);
  });

  it('should tally stretches over takes, most frequent first', () => {
    const s = [
      { ref: 'read', hyp: 'reach', at: 1 },
      { ref: 'the', hyp: 'a', at: 2 },
      { ref: 'read', hyp: 'reach', at: 1 },
    ];
    expect(tallySpans(s)).toEqual(['read → reach ×2', 'the → a']);
  });
});
