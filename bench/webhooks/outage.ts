/**
 * @module bench/webhooks/outage
 * A receiver down for a while, then back: does every delivery arrive? Starts its own `npm start`
 * stack (ports 8844/8845) with the production retry settings (5 s base, 1 h max, 24 h window), sends
 * JOBS jobs with a `webhook_url` on a port where nothing listens, keeps the receiver down for
 * OUTAGE_SEC, then starts it and waits until every delivery is `delivered`. Prints each webhook-id's
 * arrivals (at least once each, duplicates counted), when the last one came after the receiver was
 * back, and the attempts each delivery took.
 *
 *   npx tsx bench/webhooks/outage.ts          # JOBS (default 20), OUTAGE_SEC (default 600)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, startReceiver } from '../../test/e2e/support/receiver.js';
import { startStack } from '../../test/e2e/support/stack.js';
import { generateFixtures } from '../../test/support/fixtures.js';

const JOBS = Number(process.env.JOBS ?? 20);
const OUTAGE_SEC = Number(process.env.OUTAGE_SEC ?? 600);
const KEY = 'bench-webhooks-key';

const stack = await startStack({
  port: 8844,
  containerPort: 8845,
  keys: KEY,
  // The bench polls 20 delivery logs every 5 s: above the default 120 requests a minute.
  env: { MAX_CONCURRENT_JOBS: '100', RATE_LIMIT_PER_MIN: '100000' },
});
// Stopped by a signal (Ctrl-C, a timeout): exit, so that startStack's exit hook kills the stack too.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => process.exit(130));
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${stack.base}${path}`, { ...init, headers: { 'x-api-key': KEY, ...init.headers } });
try {
  const port = await freePort();
  const junk = readFileSync(join(generateFixtures(), 'binary-junk.mp4'));
  const ids: string[] = [];
  for (let i = 0; i < JOBS; i++) {
    const form = new FormData();
    form.append('file', new Blob([junk]), 'junk.mp4');
    form.append('webhook_url', `http://127.0.0.1:${port}/hook`);
    const res = await api('/api/analyze-video', { method: 'POST', body: form });
    if (!res.ok) throw new Error(`submit ${i}: ${res.status} ${await res.text()}`);
    ids.push(((await res.json()) as { video_id: string }).video_id);
  }
  const t0 = Date.now();
  console.log(`${JOBS} jobs sent; receiver down for ${OUTAGE_SEC} s`);
  await new Promise((r) => setTimeout(r, OUTAGE_SEC * 1000));
  const receiver = await startReceiver(port, 200);
  const up = Date.now();
  console.log(`receiver up at +${((up - t0) / 1000).toFixed(0)} s`);
  type Delivery = { webhook_id: string; state: string; attempts: unknown[] };
  const deliveries = async () =>
    Promise.all(
      ids.map(async (id) => {
        const res = await api(`/api/jobs/${id}/webhooks`);
        if (!res.ok) throw new Error(`GET /api/jobs/${id}/webhooks: ${res.status} ${await res.text()}`);
        return ((await res.json()) as { data: Delivery[] }).data[0];
      }),
    );
  let all: Delivery[] = [];
  const deadline = Date.now() + 90 * 60_000;
  for (;;) {
    all = await deliveries();
    if (all.every((d) => d?.state === 'delivered') || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 5_000));
  }
  const arrivals = new Map<string, number>();
  for (const r of receiver.received)
    arrivals.set(String(r.headers['webhook-id']), (arrivals.get(String(r.headers['webhook-id'])) ?? 0) + 1);
  const last = Math.max(...receiver.received.map((r) => r.at));
  const attempts = all.map((d) => d?.attempts.length ?? 0).sort((a, b) => a - b);
  console.log(
    JSON.stringify(
      {
        jobs: JOBS,
        outage_sec: OUTAGE_SEC,
        delivered: all.filter((d) => d?.state === 'delivered').length,
        ids_received_at_least_once: all.filter((d) => d && (arrivals.get(d.webhook_id) ?? 0) >= 1).length,
        requests_received: receiver.received.length,
        duplicates: receiver.received.length - arrivals.size,
        last_arrival_after_up_sec: Math.round((last - up) / 1000),
        attempts_min_median_max: [attempts[0], attempts[attempts.length >> 1], attempts.at(-1)],
      },
      null,
      1,
    ),
  );
  await receiver.close();
} finally {
  await stack.stop();
}
