/** The web page's pace card (pure HTML builder): no words-per-minute band for a language written without spaces. */
import { describe, expect, it } from 'vitest';
import { cards } from '../../../../../src/web/results/cards.js';

describe('pace card', () => {
  it('should judge words per minute, but not the pieces of Chinese or Japanese', () => {
    expect(cards({ summary: { words_per_minute: 258 } }, 6.4, [])).toMatch(/a little fast/);
    const zh = cards(
      {
        summary: { words_per_minute: 258 },
        warnings: ['summary.words_per_minute: zh is written without spaces: …'],
      },
      6.4,
      [],
    );
    expect(zh).toMatch(/258 <small>per min<\/small>/);
    expect(zh).toMatch(/pieces, not words/);
    expect(zh).not.toMatch(/a little fast/);
  });
});
