// Upload memory benchmark: streams files of several sizes to POST /api/register-avatar on a
// running `npm start` and samples the workerd processes' resident memory while they arrive.
// Usage: node bench/upload/run.mjs [sizesMB=50,500] (needs VIDEO_API_KEY or .dev.vars; PORT)
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const port = Number(process.env.PORT ?? 8787);
const key = process.env.VIDEO_API_KEY ?? /DEV_API_KEY="([^",]+)/.exec(readFileSync('.dev.vars', 'utf8'))?.[1];
const sizes = (process.argv[2] ?? '50,500').split(',').map(Number);

/** Resident memory of the workerd processes of *this* `wrangler dev` (children of its CLI process). */
function workerdRssKb() {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,args='])
    .toString()
    .trim()
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .filter(Boolean)
    .map(([, pid, ppid, rss, args]) => ({ pid, ppid, rss: Number(rss), args }));
  const cli = new Set(
    rows
      .filter((r) => r.args.includes('wrangler-dist/cli.js') && r.args.includes(`--port ${port}`))
      .map((r) => r.pid),
  );
  return rows.filter((r) => cli.has(r.ppid) && r.args.includes('workerd')).reduce((sum, r) => sum + r.rss, 0);
}

async function upload(sizeMb) {
  const file = `/tmp/bench-upload-${sizeMb}mb.bin`;
  if (!existsSync(file)) execFileSync('sh', ['-c', `head -c ${sizeMb * 1024 * 1024} /dev/urandom > ${file}`]);
  const baseline = workerdRssKb();
  let peak = baseline;
  const timer = setInterval(() => (peak = Math.max(peak, workerdRssKb())), 100);
  const started = Date.now();
  const curl = spawn('curl', [
    '-s',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}',
    '-H',
    `X-API-Key: ${key}`,
    '-F',
    `file=@${file};type=video/mp4`,
    `http://127.0.0.1:${port}/api/register-avatar`,
  ]);
  let code = '';
  curl.stdout.on('data', (d) => (code += d));
  await new Promise((r) => curl.on('exit', r));
  clearInterval(timer);
  const seconds = (Date.now() - started) / 1000;
  return {
    size_mb: sizeMb,
    http: code,
    seconds: seconds.toFixed(1),
    mb_per_s: (sizeMb / seconds).toFixed(0),
    workerd_rss_before_mb: (baseline / 1024).toFixed(0),
    workerd_rss_peak_mb: (peak / 1024).toFixed(0),
    growth_mb: ((peak - baseline) / 1024).toFixed(0),
  };
}

const rows = [];
for (const size of sizes) rows.push(await upload(size));
console.table(rows);
