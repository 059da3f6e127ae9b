import { describe, expect, it } from 'vitest';
import { planChunks, tokenBreaks } from '../../../../../../containers/media/engines/asr/align-chunks';
import { ipaToArpabet } from '../../../../../../containers/media/engines/asr/align-g2p';
import { findPauses, speechSpans } from '../../../../../../containers/media/engines/asr/align-pauses';
import { alignTokens } from '../../../../../../containers/media/engines/asr/align-tokens';

const SR = 16_000;

/** PCM from [kind, seconds] parts: 'tone' (a loud 200 Hz tone), 'quiet' (faint noise), 'zero'. */
function pcmOf(parts: Array<['tone' | 'quiet' | 'zero', number]>, seed = 1): Int16Array {
  let s = seed;
  const noise = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 2;
  const out: number[] = [];
  for (const [kind, sec] of parts) {
    for (let i = 0; i < Math.round(sec * SR); i++) {
      if (kind === 'tone')
        out.push(Math.round(8000 * Math.sin((2 * Math.PI * 200 * out.length) / SR) + 30 * noise()));
      else out.push(kind === 'quiet' ? Math.round(30 * noise()) : 0);
    }
  }
  return Int16Array.from(out);
}

describe('findPauses', () => {
  it('should find leading, inner and trailing silence of synthetic speech', () => {
    const pcm = pcmOf([
      ['zero', 0.2],
      ['tone', 1],
      ['zero', 0.4],
      ['tone', 0.8],
      ['zero', 0.3],
    ]);
    const pauses = findPauses(pcm);
    expect(pauses).toHaveLength(3);
    expect(pauses[0]).toEqual({ start: 0, end: 0.2 });
    expect(pauses[1].start).toBeCloseTo(1.2, 1);
    expect(pauses[1].end).toBeCloseTo(1.6, 1);
    expect(pauses[2].start).toBeCloseTo(2.4, 1);
    expect(pauses[2].end).toBeCloseTo(2.7, 2);
  });

  it('should adapt to a noise floor and ignore gaps shorter than the minimum', () => {
    const pcm = pcmOf([
      ['tone', 0.5],
      ['quiet', 0.08],
      ['tone', 0.5],
      ['quiet', 0.5],
      ['tone', 0.5],
    ]);
    const pauses = findPauses(pcm);
    expect(pauses).toHaveLength(1);
    expect(pauses[0].start).toBeCloseTo(1.08, 1);
    expect(pauses[0].end).toBeCloseTo(1.58, 1);
  });

  it('should not break a pause at a click shorter than maxBlipSec', () => {
    const pcm = pcmOf([
      ['tone', 0.5],
      ['zero', 0.2],
      ['tone', 0.02],
      ['zero', 0.2],
      ['tone', 0.5],
    ]);
    expect(findPauses(pcm)).toHaveLength(1);
    expect(findPauses(pcm, { maxBlipSec: 0 })).toHaveLength(2);
  });

  it('should return nothing for empty audio', () => {
    expect(findPauses(new Int16Array(0))).toEqual([]);
  });
});

describe('speechSpans', () => {
  it('should be the complement of the pauses within the clip', () => {
    expect(
      speechSpans(
        [
          { start: 0, end: 0.2 },
          { start: 1, end: 1.5 },
        ],
        3,
      ),
    ).toEqual([
      { start: 0.2, end: 1 },
      { start: 1.5, end: 3 },
    ]);
    expect(speechSpans([], 2)).toEqual([{ start: 0, end: 2 }]);
  });
});

describe('tokenBreaks', () => {
  it('should give one break per aligner token: sentence, clause, none', () => {
    const text = 'Hi, well-known world. Ok — fine! "Quoted." 42 end';
    expect(tokenBreaks(text)).toHaveLength(alignTokens(text).length);
    expect(tokenBreaks(text)).toEqual([1, 0, 0, 2, 1, 2, 2, 0, 0]);
  });
});

describe('planChunks', () => {
  it('should put sentence breaks into the pauses that fit them', () => {
    // Two sentences of 3 and 5 equal words; speech 1.5 s and 2.5 s with a pause between.
    const breaks = tokenBreaks('a b c. d e f g h.');
    const plan = planChunks([1, 1, 1, 1, 1, 1, 1, 1], breaks, [
      { start: 0.1, end: 1.6 },
      { start: 2, end: 4.5 },
    ]);
    expect(plan).toEqual([
      { from: 0, to: 3, start: 0.1, end: 1.6 },
      { from: 3, to: 8, start: 2, end: 4.5 },
    ]);
  });

  it('should split at a clause break in a pause rather than swallow the pause', () => {
    const breaks = tokenBreaks('one two, three four');
    const plan = planChunks([1, 1, 1, 1], breaks, [
      { start: 0, end: 1 },
      { start: 1.25, end: 2.2 },
    ]);
    expect(plan.map((c) => [c.from, c.to])).toEqual([
      [0, 2],
      [2, 4],
    ]);
  });

  it('should keep a short pause with no break near it inside a chunk', () => {
    const breaks = tokenBreaks('one two three four five six');
    const plan = planChunks([1, 1, 1, 1, 1, 1], breaks, [
      { start: 0, end: 0.4 },
      { start: 0.55, end: 3 },
    ]);
    expect(plan).toEqual([{ from: 0, to: 6, start: 0, end: 3 }]);
  });

  it('should cover every token and span in order, and follow durations where there is no punctuation', () => {
    const weights = [2, 2, 2, 2, 6, 6, 6, 6];
    const spans = [
      { start: 0, end: 0.8 },
      { start: 1.2, end: 2.0 },
      { start: 2.5, end: 4.9 },
      { start: 5.4, end: 7.8 },
    ];
    const plan = planChunks(weights, new Array(8).fill(0), spans, { skipCostPerSec: 20 });
    expect(plan.map((c) => [c.from, c.to])).toEqual([
      [0, 2],
      [2, 4],
      [4, 6],
      [6, 8],
    ]);
    expect(plan.map((c) => c.start)).toEqual(spans.map((s) => s.start));
  });

  it('should give everything to one chunk when there is one span', () => {
    expect(planChunks([1, 1], [0, 2], [{ start: 0.3, end: 1 }])).toEqual([
      { from: 0, to: 2, start: 0.3, end: 1 },
    ]);
  });
});

describe('ipaToArpabet', () => {
  it('should map espeak-ng IPA to the decoder phones', () => {
    expect(ipaToArpabet('fˈoːɹɾi tˈuː')).toBe('F AO R T IY T UW');
    expect(ipaToArpabet('ɑːkˈɔŋkwoʊ')).toBe('AA K AO NG K W OW');
    expect(ipaToArpabet('θˈɜːd')).toBe('TH ER D');
    expect(ipaToArpabet('dʒˌiːpˌiːjˈuː')).toBe('JH IY P IY Y UW');
    expect(ipaToArpabet('ˈ ˌ')).toBe('');
  });
});
