/**
 * @module bench/memory/trace
 * Where a running `npm start` service's memory goes over time (issue #14: workerd grew during a
 * long blur): every `--every` seconds, one line per service process (RSS, and of it the anonymous
 * part and the file-backed part, from /proc/<pid>/smaps_rollup) and, through the user runtime's
 * own inspector (workerd `--inspector-addr`), the V8 heap of each Worker isolate named in
 * `--isolates` (our Worker, and miniflare's R2, Durable Object and queue emulations). workerd answers
 * `Runtime.getHeapUsage` but not `HeapProfiler.collectGarbage`: a heap figure may include garbage
 * not yet collected (V8 collects on its own as the heap nears its limit). `--live` takes a heap
 * snapshot of each isolate first (V8 collects all garbage before one; the snapshot itself is
 * dropped), so the figure is the live heap; each snapshot takes a second or two and raises
 * workerd's RSS by hundreds of MiB for good, so RSS from a `--live` run is not comparable.
 *
 *   npx tsx bench/memory/trace.ts --out /tmp/trace.ndjson   # PORT: the service's (default 8787)
 *
 * The inspector is the user runtime's (the workerd whose command line has `--inspector-addr`):
 * found among its listening ports as the one answering `/json` (or `--inspector host:port`).
 */
import { appendFileSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BENCH_ROOT } from '../support/service.js';
import { serviceProcesses } from '../support/service-procs.js';

const { values: args } = parseArgs({
  options: {
    inspector: { type: 'string' },
    isolates: { type: 'string', default: 'core:user:video-api,r2:bucket,r2:bucket:entry,queues:queue' },
    every: { type: 'string', default: '10' },
    out: { type: 'string' },
    live: { type: 'boolean', default: false },
  },
});

/** kB fields of /proc/<pid>/smaps_rollup (Rss, Anonymous, …), or null if the process is gone. */
function rollup(pid: string): Record<string, number> | null {
  try {
    const out: Record<string, number> = {};
    for (const m of readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').matchAll(/^(\w+):\s+(\d+) kB/gm))
      out[m[1]] = Number(m[2]);
    return out;
  } catch {
    return null;
  }
}

/** One inspector session per isolate: `call` sends a CDP method and awaits its answer ({} after `timeoutMs`). */
async function connect(url: string) {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve);
    ws.addEventListener('error', reject);
  });
  let id = 0;
  const pending = new Map<number, (r: unknown) => void>();
  ws.addEventListener('message', (e: MessageEvent) => {
    const msg = JSON.parse(String(e.data)) as { id?: number; result?: unknown };
    if (msg.id != null) pending.get(msg.id)?.(msg.result);
    pending.delete(msg.id!);
  });
  return {
    call: (method: string, params = {}, timeoutMs = 10_000) =>
      new Promise<Record<string, number>>((resolve) => {
        // Not unref'd: while it waits, this timer is what keeps the process alive.
        const timer = setTimeout(() => resolve({}), timeoutMs);
        pending.set(++id, (r) => {
          clearTimeout(timer);
          resolve(r as Record<string, number>);
        });
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}

/** A session that answers: the first one opened to an isolate of a fresh runtime may never answer, a later one does. */
async function session(url: string) {
  for (let attempt = 1; ; attempt++) {
    const s = await connect(url);
    if ('usedSize' in (await s.call('Runtime.getHeapUsage', {}, 3_000)) || attempt === 3) return s;
    s.close();
  }
}

/** The user runtime's inspector address: one of its workerd's listening ports answers `/json`. */
async function findInspector(): Promise<string> {
  const user = serviceProcesses(BENCH_ROOT).find(
    (p) =>
      p.part === 'workerd' && readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').includes('--inspector-addr'),
  );
  if (!user)
    throw new Error('no workerd with --inspector-addr started from this checkout: is `npm start` running?');
  const inodes = new Set(
    readdirSync(`/proc/${user.pid}/fd`).flatMap((fd) => {
      try {
        return [/socket:\[(\d+)\]/.exec(readlinkSync(`/proc/${user.pid}/fd/${fd}`))?.[1] ?? []].flat();
      } catch {
        return [];
      }
    }),
  );
  // /proc/net/tcp: local address (hex ip:port), state 0A = LISTEN, inode in the 10th column.
  const ports = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f[3] === '0A' && inodes.has(f[9]))
    .map((f) => parseInt(f[1].split(':')[1], 16));
  for (const port of ports) {
    const ok = await fetch(`http://127.0.0.1:${port}/json`, { signal: AbortSignal.timeout(2_000) })
      .then(async (r) => r.ok && Array.isArray(await r.json()))
      .catch(() => false);
    if (ok) return `127.0.0.1:${port}`;
  }
  throw new Error(`no inspector among workerd ${user.pid}'s ports ${ports.join(', ')}`);
}

const MiB = (kb: number | undefined) => Math.round((kb ?? 0) / 1024);

async function main() {
  const names = args.isolates!.split(',');
  const sessions = new Map<string, Awaited<ReturnType<typeof session>>>();
  const inspector = args.inspector ?? (await findInspector());
  for (const name of names) sessions.set(name, await session(`ws://${inspector}/${name}`));
  const t0 = Date.now();
  const sample = async () => {
    const procs = serviceProcesses(BENCH_ROOT).flatMap((p) => {
      const r = rollup(p.pid);
      // A child that exited since the listing (a short ffprobe) is simply not in this sample.
      let cmd: string;
      try {
        cmd = readFileSync(`/proc/${p.pid}/cmdline`, 'utf8');
      } catch {
        return [];
      }
      // The user runtime (our Worker, R2/DO/queues) vs wrangler's proxy runtime in front of it.
      const role =
        p.part === 'workerd' ? (cmd.includes('--inspector-addr') ? 'workerd user' : 'workerd proxy') : p.role;
      return [
        {
          pid: p.pid,
          role,
          rss: MiB(r?.Rss),
          anon: MiB(r?.Anonymous),
          file: MiB((r?.Rss ?? 0) - (r?.Anonymous ?? 0)),
        },
      ];
    });
    const heaps: Record<string, { used: number; total: number; backing?: number }> = {};
    for (const [name, s] of sessions) {
      if (args.live) await s.call('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      const h = await s.call('Runtime.getHeapUsage');
      heaps[name] = {
        used: Math.round((h.usedSize ?? 0) / 2 ** 20),
        total: Math.round((h.totalSize ?? 0) / 2 ** 20),
        ...(h.backingStorageSize != null ? { backing: Math.round(h.backingStorageSize / 2 ** 20) } : {}),
      };
    }
    const line = { t: Math.round((Date.now() - t0) / 1000), procs, heaps };
    if (args.out) appendFileSync(args.out, JSON.stringify(line) + '\n');
    const workerd = procs
      .filter((p) => p.role.startsWith('workerd'))
      .map((p) => `${p.role} ${p.rss} (anon ${p.anon}, file ${p.file})`);
    const wrangler = procs.filter((p) => p.role.startsWith('wrangler')).map((p) => `wrangler ${p.rss}`);
    const media = procs.filter((p) => p.role === 'media service (node)').map((p) => `media ${p.rss}`);
    const heapText = Object.entries(heaps).map(
      ([n, h]) => `${n} ${h.used}/${h.total}${h.backing != null ? `+${h.backing}` : ''}`,
    );
    console.log(
      `${line.t}s | ${[...workerd, ...wrangler, ...media].join(' | ')} | heap MiB ${heapText.join(', ')}`,
    );
  };
  const timer = setInterval(() => void sample(), Number(args.every) * 1000);
  await sample();
  const stop = () => {
    clearInterval(timer);
    for (const s of sessions.values()) s.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
