/**
 * The relative links of a markdown page, and those that do not resolve: a file or folder that is
 * not there, or a `#fragment` that names no heading of the page it points to. Links in code (fenced
 * blocks, inline code) are text, not links, and are skipped; web addresses are not checked (no
 * network in the tests).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  reason: string;
}

/** The page's text with code blanked out (same line numbers), so links and headings in code are not read. */
export function withoutCode(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length));
    })
    .join('\n');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a page offers: its headings' slugs (a repeated one gets -1, -2 …, as GitHub numbers them). */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = headingSlug(heading[1]);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** The `[text](target)` links of a page outside code, with their line numbers. */
export function linksOf(markdown: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  withoutCode(markdown)
    .split('\n')
    .forEach((text, i) => {
      for (const m of text.matchAll(/\]\(\s*(?:<([^>]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g)) {
        links.push({ line: i + 1, target: m[1] ?? m[2] });
      }
    });
  return links;
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/** The links of `file` (a markdown page) that do not resolve on disk. */
export function brokenLinks(file: string): BrokenLink[] {
  const markdown = readFileSync(file, 'utf8');
  const broken: BrokenLink[] = [];
  for (const { line, target } of linksOf(markdown)) {
    if (EXTERNAL.test(target)) continue;
    const [path, fragment] = splitFragment(target);
    const page = path === '' ? file : resolve(dirname(file), decodeURI(path));
    if (!existsSync(page)) {
      broken.push({ file, line, target, reason: 'no such file' });
      continue;
    }
    if (fragment === undefined || !page.endsWith('.md') || statSync(page).isDirectory()) continue;
    const anchors = page === file ? anchorsOf(markdown) : anchorsOf(readFileSync(page, 'utf8'));
    if (!anchors.has(decodeURIComponent(fragment))) {
      broken.push({ file, line, target, reason: `no heading #${fragment}` });
    }
  }
  return broken;
}

function splitFragment(target: string): [string, string | undefined] {
  const hash = target.indexOf('#');
  return hash < 0 ? [target, undefined] : [target.slice(0, hash), target.slice(hash + 1)];
}
