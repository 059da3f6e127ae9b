/**
 * Every relative link of the README, docs/ and the other pages beside the code resolves: pages
 * move between them, and a link left pointing at the old place (or at a heading renamed) fails
 * here, not in a reader's browser.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, brokenLinks, headingSlug, linksOf } from './markdown-links.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
/** Folders that hold no pages of ours: installed packages, environments, state, outputs. */
const SKIP = new Set(['node_modules', '.venv', '.wrangler', '.git', 'dist', '.tmp', 'out']);

/** Every markdown page of the repository: README.md, docs/, and the READMEs beside the code. */
function pages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : pages(join(dir, entry.name));
    return entry.name.endsWith('.md') ? [join(dir, entry.name).slice(ROOT.length)] : [];
  });
}
const PAGES = pages(ROOT);

describe('relative links of the markdown pages', () => {
  it('include README.md and docs/', () => {
    expect(PAGES).toContain('README.md');
    expect(PAGES).toContain('docs/api.md');
  });

  it.each(PAGES.map((page) => [page]))('%s: every link resolves', (page) => {
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
