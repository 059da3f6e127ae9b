/**
 * Every relative link of the README and of docs/ resolves: pages move between them, and a link
 * left pointing at the old place (or at a heading renamed) fails here, not in a reader's browser.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, brokenLinks, headingSlug, linksOf } from './markdown-links.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
const PAGES = [
  join(ROOT, 'README.md'),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, 'docs', name)),
];

describe('relative links of README.md and docs/', () => {
  it.each(PAGES.map((page) => [page.slice(ROOT.length)]))('%s: every link resolves', (page) => {
    expect(brokenLinks(join(ROOT, page))).toEqual([]);
  });
});

describe('the link checker', () => {
  it('finds a missing file and a missing heading, and accepts what exists', () => {
    const dir = mkdtempSync(join(tmpdir(), 'links-'));
    writeFileSync(join(dir, 'b.md'), '# Title\n\n## Blur speed and quality\n\n## Blur speed and quality\n');
    writeFileSync(
      join(dir, 'a.md'),
      [
        '# A',
        '[ok](b.md) [ok](b.md#blur-speed-and-quality) [ok](b.md#blur-speed-and-quality-1) [ok](#a)',
        '[gone](c.md) [bad anchor](b.md#speed) [web](https://example.com/x.md)',
        '`[in code](d.md)`',
        '```',
        '[in a block](e.md)',
        '```',
      ].join('\n'),
    );
    expect(brokenLinks(join(dir, 'a.md')).map(({ line, target, reason }) => [line, target, reason])).toEqual([
      [3, 'c.md', 'no such file'],
      [3, 'b.md#speed', 'no heading #speed'],
    ]);
  });

  it('makes the anchors GitHub makes', () => {
    expect(headingSlug('Every option at once (blur + eye contact), per stage')).toBe(
      'every-option-at-once-blur--eye-contact-per-stage',
    );
    expect(headingSlug('`npm run image:smoke`')).toBe('npm-run-imagesmoke');
    expect([...anchorsOf('# A\n```\n# not a heading\n```\n## A\n')]).toEqual(['a', 'a-1']);
    expect(linksOf('see [x](y.md "title") and [z](<w v.md>)')).toEqual([
      { line: 1, target: 'y.md' },
      { line: 1, target: 'w v.md' },
    ]);
  });
});
