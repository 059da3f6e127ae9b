/**
 * docs/configuration.md names every variable of wrangler.toml's `[vars]` (the Worker's settings):
 * a variable added there fails here until the page says what it does.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

/** The keys of a TOML file's `[vars]` table (one `KEY = value` per line). */
function varsOf(toml: string): string[] {
  const table = /^\[vars\]\n([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(toml)?.[1] ?? '';
  return [...table.matchAll(/^([A-Z][A-Z0-9_]*)\s*=/gm)].map((m) => m[1]);
}

describe('docs/configuration.md', () => {
  it("names every variable of wrangler.toml's [vars]", () => {
    const vars = varsOf(read('wrangler.toml'));
    expect(vars.length).toBeGreaterThan(20);
    const page = read('docs/configuration.md');
    expect(vars.filter((name) => !page.includes(`\`${name}\``))).toEqual([]);
  });

  it('reads the [vars] table only', () => {
    expect(varsOf('name = "x"\n[vars]\n# c\nA_B = "1"\nC = ""\n\n[[queues]]\nD = "2"\n')).toEqual([
      'A_B',
      'C',
    ]);
  });
});
