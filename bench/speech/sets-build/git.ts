/**
 * @module bench/speech/sets-build/git
 * Read-only access to a bare git snapshot of a source repository through the git CLI (`show`,
 * `ls-tree`, `log`, `for-each-ref`), for the set builders. Nothing here writes to a repository, and
 * every file is read at a named commit, so a set row can say exactly where its audio came from.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface TreeEntry {
  mode: string;
  type: string;
  blob: string;
  path: string;
}

export interface RefTip {
  ref: string;
  commit: string;
  /** Committer time, unix seconds. */
  time: number;
}

export class Repo {
  private showCache = new Map<string, Buffer>();
  private timeCache = new Map<string, number>();
  constructor(
    /** owner/name as GitHub spells it (the MANIFEST's `source_repo`). */
    readonly name: string,
    readonly gitDir: string,
  ) {}

  raw(args: string[]): Buffer {
    // quotepath off: paths such as SPPAS's `AG_éàç_0460.wav` come back as UTF-8, not octal escapes
    return execFileSync('git', ['--git-dir', this.gitDir, '-c', 'core.quotepath=off', ...args], {
      maxBuffer: 1 << 30,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  text(args: string[]): string {
    return this.raw(args).toString('utf8');
  }

  /** `git show COMMIT:path` as bytes (throws when absent). The last 64 reads are kept. */
  show(commit: string, path: string): Buffer {
    const key = `${commit}:${path}`;
    let b = this.showCache.get(key);
    if (!b) {
      b = this.raw(['show', key]);
      if (this.showCache.size > 64) this.showCache.clear();
      this.showCache.set(key, b);
    }
    return b;
  }

  /**
   * True when COMMIT:path exists and its object can be read: a snapshot may list a large file in
   * its trees without holding the blob.
   */
  has(commit: string, path: string): boolean {
    try {
      this.raw(['cat-file', '-e', `${commit}:${path}`]);
      const blob = this.text(['rev-parse', `${commit}:${path}`]).trim();
      this.raw(['cat-file', '-e', blob]);
      return true;
    } catch {
      return false;
    }
  }

  /** `git ls-tree -r -z COMMIT [-- path]`. */
  lsTree(commit: string, under?: string): TreeEntry[] {
    const out = this.text(['ls-tree', '-r', '-z', commit, ...(under ? ['--', under] : [])]);
    return out
      .split('\0')
      .filter(Boolean)
      .map((line) => {
        const tab = line.indexOf('\t');
        const [mode, type, blob] = line.slice(0, tab).split(' ');
        return { mode, type, blob, path: line.slice(tab + 1) };
      });
  }

  /** A revision (default HEAD) as its 40-hex commit. */
  commit(rev = 'HEAD'): string {
    const sha = this.text(['rev-parse', '--verify', `${rev}^{commit}`]).trim();
    if (!/^[0-9a-f]{40}$/.test(sha)) throw new Error(`${this.name}: bad commit ${sha}`);
    return sha;
  }

  commitTime(commit: string): number {
    let t = this.timeCache.get(commit);
    if (t === undefined) {
      t = Number(this.text(['log', '-1', '--format=%ct', commit]).trim());
      this.timeCache.set(commit, t);
    }
    return t;
  }

  /** Every branch and tag tip (tags peeled to their commit). */
  refTips(): RefTip[] {
    const out = this.text(['for-each-ref', '--format=%(refname)%09%(objectname)%09%(*objectname)']);
    const tips: RefTip[] = [];
    for (const line of out.split('\n').filter(Boolean)) {
      const [ref, obj, peeled] = line.split('\t');
      const commit = peeled || obj;
      try {
        if (this.text(['cat-file', '-t', commit]).trim() !== 'commit') continue;
        tips.push({ ref, commit, time: this.commitTime(commit) });
      } catch {
        // a ref whose object the snapshot lacks: skipped
      }
    }
    return tips;
  }
}

/**
 * The git dir of a snapshot that the session tool `fetch github:owner/name` left under `root`:
 * `<root>/<owner>+<name>/repo`, or `repo/.git` for the snapshots that are clones with a work tree.
 */
export function findMirror(root: string, name: string): string | undefined {
  const base = join(root, name.replace('/', '+'), 'repo');
  for (const d of [join(base, '.git'), base])
    if (existsSync(join(d, 'HEAD')) && existsSync(join(d, 'objects'))) return d;
  return undefined;
}
