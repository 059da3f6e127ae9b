/**
 * @module bench/processing/blur-timeline
 * Where the blur render's cores go over time: renders 60 s of 720p talking head with
 * `blur_background` (renderVideo, no HTTP) and samples, every 250 ms, the CPU of each process of
 * the render (this Node process, the encoder, the mask decoder, the segmenter process) from /proc.
 * Prints one row per second (cores busy per process: 1.00 = one core) and the idle spans of the
 * encoder (below half a core), the sign that it waits for masks.
 *
 * Run: `flock /tmp/bench.lock npx tsx bench/processing/blur-timeline.ts [--render-root DIR]`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { talkingHead720p60s } from './clips.js';

const TICK = 100; // clock ticks per second (USER_HZ)
const SAMPLE_MS = 250;

/** user+system ticks of `pid` and its command line, or null when it is gone. */
function ticks(pid: number): { cpu: number; cmd: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    return { cpu: Number(stat[11]) + Number(stat[12]), cmd };
  } catch {
    return null;
  }
}

/** Pids whose parent is `parent`. */
function children(parent: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      if (ppid === parent) out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}

const kind = (cmd: string) =>
  cmd.includes('segmenter-process')
    ? 'segmenter'
    : cmd.includes('libx264')
      ? 'encoder'
      : cmd.includes('ffmpeg')
        ? 'decoder'
        : 'other';

async function main() {
  const at = process.argv.indexOf('--render-root');
  const root = at > 0 ? resolve(process.argv[at + 1]) : process.cwd();
  const mod = await import(join(root, 'containers/media/engines/render/index.ts'));
  const hd = talkingHead720p60s();
  const work = mkdtempSync(join(tmpdir(), 'blur-timeline-'));
  const samples: Array<{ t: number; cpu: Record<string, number> }> = [];
  const t0 = performance.now();
  const timer = setInterval(() => {
    const cpu: Record<string, number> = { node: ticks(process.pid)?.cpu ?? 0 };
    for (const pid of children(process.pid)) {
      const p = ticks(pid);
      if (p) cpu[kind(p.cmd)] = (cpu[kind(p.cmd)] ?? 0) + p.cpu;
    }
    samples.push({ t: (performance.now() - t0) / 1000, cpu });
  }, SAMPLE_MS);
  const { report } = await mod.renderVideo(
    { sourcePath: hd, options: mod.parseRenderOptions('{"blur_background":true}'), workDir: work },
    mod.defaultRenderEngines(),
  );
  clearInterval(timer);
  const wall = (performance.now() - t0) / 1000;
  const kinds = ['node', 'decoder', 'segmenter', 'encoder'];
  console.log(`render ${wall.toFixed(1)} s from ${root}; ${JSON.stringify(report.blur)}`);
  console.log(`| second | ${kinds.join(' | ')} |\n|---|${kinds.map(() => '---|').join('')}`);
  // Cores per second: the tick difference of each kind over each whole second (a process that
  // ended is missing from later samples: its difference is clamped at 0).
  const perSecond = (from: number, to: number, k: string) => {
    const a = samples.find((s) => s.t >= from),
      b = [...samples].reverse().find((s) => s.t <= to);
    if (!a || !b || b.t <= a.t) return 0;
    return Math.max(0, (b.cpu[k] ?? 0) - (a.cpu[k] ?? 0)) / TICK / (b.t - a.t);
  };
  const idle: number[] = [];
  for (let s = 0; s < Math.ceil(wall); s++) {
    const row = kinds.map((k) => perSecond(s, s + 1, k));
    if (row[3] < 0.5) idle.push(s);
    console.log(`| ${s} | ${row.map((v) => v.toFixed(2)).join(' | ')} |`);
  }
  console.log(`\nseconds with the encoder below half a core: ${idle.join(', ') || 'none'}`);
  console.log(
    `load average at the end: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  );
  rmSync(work, { recursive: true, force: true });
}

await main();
