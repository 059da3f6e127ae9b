/**
 * @module bench/speech/sets-build/cli
 * What a set builder's run shares with the others: its options (`--out DIR`, `--mirror-root DIR`,
 * `--repo owner/name=GITDIR`), the snapshots they name, and the set folder it writes. The folder is
 * built beside the destination as `<out>.building` and moved into place only when complete, so a
 * failed or interrupted build never leaves half a set where the benches read.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SETS_DIR } from '../sets.js';
import { findMirror, Repo } from './git.js';

/** Where the session tool `fetch github:owner/name` leaves its snapshots. */
const MIRROR_ROOT = '/work/.mirror';

/** The MANIFEST.tsv columns every set has (docs/speech-sets.md), then the set's own last column. */
const COLUMNS = [
  'file',
  'language',
  'speaker',
  'duration_s',
  'source_repo',
  'source_path',
  'source_commit',
  'start_s',
  'end_s',
  'license',
  'reference_transcript',
  'fluent',
  'hesitation_times',
  'notes',
] as const;
export type Row = Record<(typeof COLUMNS)[number], string>;

export interface Cli {
  /** The set folder to (re)write. */
  out: string;
  /** The value after `--name`, if given. */
  option(name: string): string | undefined;
  flag(name: string): boolean;
  /** The snapshot of owner/name: `--repo owner/name=GITDIR`, else found under the mirror root. */
  repo(name: string): Repo;
}

export function cli(set: string, argv = process.argv.slice(2)): Cli {
  const option = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 && argv[i + 1] && !argv[i + 1].startsWith('--') ? argv[i + 1] : undefined;
  };
  const root = option('--mirror-root') ?? MIRROR_ROOT;
  const overrides = new Map<string, string>();
  argv.forEach((a, i) => {
    const [name, dir] = a === '--repo' ? (argv[i + 1] ?? '').split('=') : [];
    if (name && dir) overrides.set(name, dir);
  });
  const out = resolve(option('--out') ?? join(SETS_DIR, set));
  // the finished set replaces `out` entirely: never a folder that is not a set (a mistyped --out)
  if (existsSync(out) && readdirSync(out).length && !existsSync(join(out, 'MANIFEST.tsv')))
    throw new Error(`${out} is not empty and has no MANIFEST.tsv: not a set folder, not replaced`);
  return {
    out,
    option,
    flag: (name) => argv.includes(name),
    repo(name) {
      const dir = overrides.get(name) ?? findMirror(root, name);
      if (!dir)
        throw new Error(`no snapshot of ${name}: fetch github:${name}, or pass --repo ${name}=<git dir>`);
      return new Repo(name, dir);
    },
  };
}

/** A fresh `<out>.building` with the given subfolders; the set's files are written into it. */
export function startSet(out: string, subdirs: string[]): string {
  const stage = `${out}.building`;
  rmSync(stage, { recursive: true, force: true });
  for (const d of subdirs) mkdirSync(join(stage, d), { recursive: true });
  return stage;
}

/** A MANIFEST.tsv field: no tab or line break inside, no space at the ends. */
const field = (v: string): string => v.replace(/[\t\r\n]+/g, ' ').trim();

/** Writes the MANIFEST.tsv (the common columns, then `last`) and moves the set into place. */
export function finishSet<K extends 'part' | 'style'>(
  stage: string,
  out: string,
  last: K,
  rows: Array<Row & Record<K, string>>,
): void {
  const header = [...COLUMNS, last];
  const lines = [header.join('\t'), ...rows.map((r) => header.map((k) => field(r[k])).join('\t'))];
  writeFileSync(join(stage, 'MANIFEST.tsv'), `${lines.join('\n')}\n`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(dirname(out), { recursive: true });
  renameSync(stage, out);
}
