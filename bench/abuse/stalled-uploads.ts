/**
 * @module bench/abuse/stalled-uploads
 * Issue #34, finding 6: `n` uploads of one key send their headers and the start of a file part,
 * then trickle (a few bytes now and then, far below the pace an upload must keep), while another
 * key polls the status endpoint one request at a time. Measures how each stalled upload ends and
 * the other key's latency before and during the stall.
 * @example const m = await stalledUploads({ port: 8787, key, otherKey, n: 100, watchSec: 45 });
 */
import { randomBytes } from 'node:crypto';
import { percentile } from '../../src/analytics/visual/math.js';
import { sendPaced, type PacedAnswer } from './raw-request.js';

export interface StalledUploadsRun {
  port: number;
  /** The key whose uploads stall. */
  key: string;
  /** The key whose status polls are timed. */
  otherKey: string;
  n: number;
  /** The trickle: `bytes` every `everyMs` after the first 1 KiB of the file. */
  trickle: { bytes: number; everyMs: number };
  /** How long the stalled uploads are given to be answered; unanswered ones are then closed. */
  watchSec: number;
  /** Timed polls of the other key before the stall (its baseline). */
  baselinePolls?: number;
}

export interface Latency {
  count: number;
  p50Ms: number;
  p99Ms: number;
}

export interface StalledUploadsResult {
  /** Status of each stalled upload's answer (0: none within `watchSec`, or the connection closed unanswered). */
  statuses: number[];
  /** Error codes of the answers. */
  codes: string[];
  /** When each answered upload was answered, ms after its headers. */
  answeredMs: number[];
  baseline: Latency;
  during: Latency;
}

const UNKNOWN_STATUS = '/api/status/vid_AAAAAAAAAAAAAAAAAAAAAA';

/** Pure: the count, p50 and p99 of request times (ms). */
export function latencyOf(times: readonly number[]): Latency {
  return { count: times.length, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99) };
}

async function timedPoll(port: number, key: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}${UNKNOWN_STATUS}`, { headers: { 'x-api-key': key } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`the other key's status poll answered ${res.status}`);
  return performance.now() - t0;
}

/** Polls one at a time until `until()` says stop; each poll's time. */
async function pollWhile(port: number, key: string, more: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (more()) {
    times.push(await timedPoll(port, key));
    // About five a second: within the status budget (600/min) of a run of a few minutes.
    await new Promise((r) => setTimeout(r, 200));
  }
  return times;
}

export async function stalledUploads({
  port,
  key,
  otherKey,
  n,
  trickle,
  watchSec,
  baselinePolls = 50,
}: StalledUploadsRun): Promise<StalledUploadsResult> {
  let polls = 0;
  const baseline = await pollWhile(port, otherKey, () => polls++ < baselinePolls);
  const boundary = 'stall';
  // A whole form (file part and closing boundary) is declared; only its start and the trickle come.
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    ),
    randomBytes(1024 * 1024),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  let open = n;
  const stalled = Array.from({ length: n }, () =>
    sendPaced({
      port,
      path: '/api/analyze-video',
      headers: { 'x-api-key': key, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      first: 1024 + 128,
      trickle,
      timeoutMs: watchSec * 1000,
    }).finally(() => open--),
  );
  const during = await pollWhile(port, otherKey, () => open > 0);
  const answers: PacedAnswer[] = await Promise.all(stalled);
  return {
    statuses: answers.map((a) => a.status),
    codes: answers.map((a) => {
      try {
        return String(JSON.parse(a.body).error?.code ?? '');
      } catch {
        return '';
      }
    }),
    answeredMs: answers.flatMap((a) => (a.answeredMs === null ? [] : [a.answeredMs])),
    baseline: latencyOf(baseline),
    during: latencyOf(during),
  };
}
