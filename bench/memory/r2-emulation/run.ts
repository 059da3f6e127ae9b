/**
 * @module bench/memory/r2-emulation/run
 * Is workerd's growth during long jobs (issue #14) ours or the local R2 emulation's? Starts
 * `wrangler dev` on a Worker that only moves bytes with the API Worker's own `streamToR2`
 * (worker.ts), sends a sequence of steps, and prints the user runtime's RSS (the workerd with
 * `--inspector-addr`: the Worker, miniflare's R2 and the blob store) after each step.
 *
 *   PORT=8821 npx tsx bench/memory/r2-emulation/run.ts            # default steps below
 *   PORT=8821 npx tsx bench/memory/r2-emulation/run.ts discard:160 store:160:a read:a
 *
 * A step is `discard:MiB` (generated, dropped: no R2), `store:MiB:key` (into R2) or `read:key`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_ROOT } from '../../support/service.js';

const DEFAULT_STEPS = [
  'discard:160',
  'discard:160',
  ...['a', 'b', 'c', 'd', 'e', 'f'].flatMap((k) => [`store:160:${k}`, `read:${k}`]),
  'discard:160',
];

const port = Number(process.env.PORT ?? 8787);

/** Pids of every descendant of `root`. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      // ended meanwhile
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const c of children.get(pid) ?? []) out.push(c, ...(walk(c), []));
  };
  walk(root);
  return out;
}

/** MiB of RSS and of its anonymous part of the user runtime started by `wranglerPid`. */
function userRuntime(wranglerPid: number): { rss: number; anon: number } {
  for (const pid of descendants(wranglerPid)) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--inspector-addr')) continue;
      const r = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(r)?.[1] ?? 0);
      return { rss: Math.round(kb('Rss') / 1024), anon: Math.round(kb('Anonymous') / 1024) };
    } catch {
      // ended meanwhile
    }
  }
  return { rss: 0, anon: 0 };
}

async function main() {
  const steps = process.argv.slice(2).length ? process.argv.slice(2) : DEFAULT_STEPS;
  const persist = mkdtempSync(join(tmpdir(), 'r2-emulation-'));
  const wrangler = spawn(
    join(BENCH_ROOT, 'node_modules/.bin/wrangler'),
    [
      'dev',
      '-c',
      join(BENCH_ROOT, 'bench/memory/r2-emulation/wrangler.toml'),
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-port',
      String(port + 1442),
      '--persist-to',
      persist,
      '--show-interactive-dev-session=false',
    ],
    {
      cwd: BENCH_ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('wrangler dev did not get ready in 60 s')), 60_000);
      wrangler.stdout!.on('data', (d: Buffer) => {
        if (/Ready on/.test(d.toString())) {
          clearTimeout(timer);
          resolve();
        }
      });
      wrangler.on('exit', (code) => reject(new Error(`wrangler dev exited (${code})`)));
    });
    const start = userRuntime(wrangler.pid!);
    console.log('| step | answer | s | user workerd RSS MiB | of it anonymous | RSS since start |');
    console.log('|---|---|---|---|---|---|');
    console.log(`| start | | | ${start.rss} | ${start.anon} | 0 |`);
    for (const step of steps) {
      const [what, a, b] = step.split(':');
      const query = what === 'read' ? `key=${a}` : `mib=${a}&key=${b ?? 'object'}`;
      const t0 = performance.now();
      const answer = await (await fetch(`http://127.0.0.1:${port}/${what}?${query}`)).text();
      const sec = (performance.now() - t0) / 1000;
      const now = userRuntime(wrangler.pid!);
      console.log(
        `| ${step} | ${answer} | ${sec.toFixed(1)} | ${now.rss} | ${now.anon} | ${now.rss - start.rss} |`,
      );
    }
  } finally {
    process.kill(-wrangler.pid!, 'SIGTERM');
    rmSync(persist, { recursive: true, force: true });
  }
}

await main();
