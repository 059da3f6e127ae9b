// Load test of a running `npm start` (loopback only): heavy status polling, concurrent small
// uploads, and the per-key rate limiter under load. Prints p50/p99 latency and error rate.
//
//   npm start &                 # then
//   node bench/load/run.mjs     # PORT (default 8787), DURATION_SEC (default 10, max 60)
//
// Keys: a production key with high limits is issued through the admin API (ADMIN_TOKEN from
// .dev.vars) and revoked at the end, so the limiter does not shape the latency runs; the limiter
// run uses the development key (DEV_API_KEY from .dev.vars) with its default limits.
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;
const PORT = Number(process.env.PORT ?? 8787);
const BASE = `http://127.0.0.1:${PORT}`;
const DURATION_SEC = Math.min(60, Math.max(1, Number(process.env.DURATION_SEC ?? 10)));
/** Hard caps so a run is bounded in count as well as time. */
const MAX_STATUS_REQUESTS = 20_000;
const MAX_UPLOADS = 300;
const UPLOAD_BYTES = 64 * 1024;

function devVars() {
  try {
    const text = readFileSync(join(ROOT, '.dev.vars'), 'utf8');
    return Object.fromEntries(
      text
        .split('\n')
        .map((l) => /^\s*([A-Z_]+)\s*=\s*"?(.*?)"?\s*$/.exec(l))
        .filter(Boolean)
        .map((m) => [m[1], m[2]]),
    );
  } catch {
    return {};
  }
}

const vars = devVars();
const devKey = (process.env.DEV_API_KEY ?? vars.DEV_API_KEY ?? '').split(',')[0].trim();
const adminToken = process.env.ADMIN_TOKEN ?? vars.ADMIN_TOKEN;
if (!devKey) throw new Error('no DEV_API_KEY (in .dev.vars or the environment)');

async function json(res) {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return { raw: text.slice(0, 200) };
  }
}

/** A multipart body with one small binary file (the first byte 0: never sniffed as text). */
function uploadBody() {
  const boundary = 'loadbench7f3a';
  const bytes = new Uint8Array(UPLOAD_BYTES).map((_, i) => (i * 131 + 7) & 255);
  bytes[0] = 0;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="load.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    body: Buffer.concat([head, Buffer.from(bytes), tail]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

/**
 * One autocannon run, bounded in time (`duration`) and in count (`maxRequests`: stopped early).
 * Requests go through `requests[]`: autocannon has no top-level path option.
 */
function run({ maxRequests, method = 'GET', path, headers, body, onResponse, ...opts }) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: BASE, ...opts, requests: [{ method, path, headers, body, onResponse }] },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    let seen = 0;
    instance.on('response', () => {
      if (++seen === maxRequests) instance.stop();
    });
  });
}

function row(name, r, extra = '') {
  const total = r.requests.total;
  const errors = r.errors + r.timeouts + r.non2xx;
  return {
    scenario: name,
    requests: total,
    'req/s': Math.round(r.requests.average),
    'p50 ms': r.latency.p50,
    'p99 ms': r.latency.p99,
    'max ms': r.latency.max,
    'error %': total ? ((100 * errors) / total).toFixed(2) : 'n/a',
    note: extra,
  };
}

async function main() {
  const health = await fetch(`${BASE}/healthz`).catch(() => null);
  if (!health?.ok)
    throw new Error(`nothing answers at ${BASE}: start the stack with npm start (PORT=${PORT})`);

  let key = devKey;
  let keyId = null;
  if (adminToken) {
    const res = await fetch(`${BASE}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'bench-load',
        limits: { requests_per_minute: 1_000_000, status_per_minute: 1_000_000, concurrent_jobs: 1_000 },
      }),
    });
    if (res.status === 201) ({ key, key_id: keyId } = await json(res));
  }
  const headers = { 'x-api-key': key };
  const rows = [];
  try {
    // A registered avatar proves the key works for uploads before the runs.
    const { body, type } = uploadBody();
    const created = await json(
      await fetch(`${BASE}/api/register-avatar`, {
        method: 'POST',
        headers: { ...headers, 'content-type': type },
        body,
      }),
    );
    const avatarIds = created.video_id ? [created.video_id] : [];

    rows.push(
      row(
        'status polling (unknown id)',
        await run({
          path: '/api/status/vid_AAAAAAAAAAAAAAAAAAAAAA',
          headers,
          connections: 32,
          duration: DURATION_SEC,
          maxRequests: MAX_STATUS_REQUESTS,
        }),
        '32 connections',
      ),
    );

    const uploads = await run({
      connections: 8,
      duration: DURATION_SEC,
      maxRequests: MAX_UPLOADS,
      method: 'POST',
      path: '/api/register-avatar',
      headers: { ...headers, 'content-type': type },
      body,
      onResponse: (status, resBody) => {
        if (status === 200) avatarIds.push(JSON.parse(resBody).video_id);
      },
    });
    rows.push(row('small uploads (64 KiB register-avatar)', uploads, '8 connections'));

    // The limiter under load: the development key has the default limits.
    const limited = await run({
      path: '/api/jobs/vid_AAAAAAAAAAAAAAAAAAAAAA',
      method: 'DELETE',
      headers: { 'x-api-key': devKey },
      connections: 16,
      amount: 400,
    });
    // Every answer is an error by design (404 for the unknown id, 429 beyond the limit).
    const codes = limited.statusCodeStats ?? {};
    rows.push({
      ...row('rate limiter (dev key, 400 requests)', limited),
      note: `404: ${codes['404']?.count ?? 0}, 429: ${codes['429']?.count ?? 0} (errors by design)`,
    });

    // Clean up what the run stored.
    for (const id of avatarIds) await fetch(`${BASE}/api/avatars/${id}`, { method: 'DELETE', headers });
  } finally {
    if (keyId)
      await fetch(`${BASE}/admin/keys/${keyId}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${adminToken}` },
      });
  }
  console.table(rows);
}

main().catch((err) => {
  console.error(String(err?.stack ?? err));
  process.exit(1);
});
