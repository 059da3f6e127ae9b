/**
 * The error table of docs/api.md lists every code the API can return, with its HTTP status, and
 * nothing else: a code added to the contract, or a status changed, fails here until the page says so.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../src/contract/errors.js';

const PAGE = new URL('../../../docs/api.md', import.meta.url);

/** The `| \`code\`, \`code\` | status |` rows of the page's "Errors" section, one entry per code. */
function errorTable(markdown: string): Record<string, number> {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Errors\n')) ?? '';
  const rows: Record<string, number> = {};
  for (const [, codes, status] of section.matchAll(/^\| ((?:`[a-z_]+`(?:, )?)+) \| (\d{3}) \|/gm))
    for (const [, code] of codes.matchAll(/`([a-z_]+)`/g)) rows[code] = Number(status);
  return rows;
}

describe('docs/api.md error table', () => {
  it('lists every error code of the contract with its status, and no other', () => {
    expect(errorTable(readFileSync(PAGE, 'utf8'))).toEqual({ ...ERROR_CODES });
  });

  it('reads rows of one or more codes, and only the Errors section', () => {
    const page =
      '## Errors\n\n| `a_b` | 400 | x |\n| `c`, `d` | 503 | y |\n\n## Other\n\n| `e` | 404 | z |\n';
    expect(errorTable(page)).toEqual({ a_b: 400, c: 503, d: 503 });
  });
});
