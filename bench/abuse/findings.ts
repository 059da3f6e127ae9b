/**
 * @module bench/abuse/findings
 * Issue #12, "each finding above re-run with its reproduction and its new answer": against a running
 * `npm start` (PORT, the dev key as `bench/support/service.ts` finds it), re-runs every finding's
 * reproduction as the issue states it and prints one table: finding | reproduction | answer | what
 * the issue saw | verdict (in finding order; they run in another). Every answer comes from a request
 * sent now; a row whose answer is not the fixed one says FAIL and the script exits 1.
 *
 *   PORT=8787 npx tsx bench/abuse/findings.ts [--log service.log]
 *
 * `--log` (the service's output) lets finding 3 show what the app itself answered behind the dev
 * server's proxy (its access-log line for the request id). The client-address rows run last: they
 * spend an address's unauthenticated budget for a minute (random documentation addresses each run).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeCorpus, TALKING_HEAD } from '../../test/fixtures/abuse/make-corpus.js';
import { DEFAULT_CONCURRENT_JOBS, DEFAULT_UNAUTH_PER_MIN } from '../../src/auth/limits.js';
import { devKey, serviceClient } from '../support/service.js';
import { sendTruncated } from './raw-request.js';

const { baseUrl } = serviceClient();
const KEY = devKey();
const PORT = Number(new URL(baseUrl).port);
const logPath = (() => {
  const at = process.argv.indexOf('--log');
  return at === -1 ? null : process.argv[at + 1];
})();
/** ffmpeg's own words must not reach users (the same rule as test/e2e/abuse.test.ts). */
const INTERNALS = /stream #\d|#\d+:\d+|exited with code|ffmpeg|ffprobe|\/tmp\//i;
/** "At once": an input error known from the first look, on 2 shared cores. */
const AT_ONCE_SEC = 30;

interface Finding {
  finding: string;
  reproduction: string;
  /** What the issue reported for this reproduction. */
  saw: string;
}
interface Row extends Finding {
  answer: string;
  ok: boolean;
}
const rows: Row[] = [];
const failedMessages: string[] = [];

/** Runs one reproduction and records its row; an exception is that row's FAIL, not the end of the run. */
async function finding(spec: Finding, run: () => Promise<{ answer: string; ok: boolean }>): Promise<void> {
  let answer: string;
  let ok = false;
  try {
    ({ answer, ok } = await run());
  } catch (err) {
    answer = `error: ${(err as Error).message}`;
  }
  rows.push({ ...spec, answer, ok });
  console.error(`${ok ? 'ok  ' : 'FAIL'} ${spec.finding}: ${answer}`);
}

// ---- HTTP --------------------------------------------------------------------------------------

interface Answer {
  status: number;
  headers: Headers;
  json: Record<string, any> | null;
  text: string;
}

async function request(path: string, init: RequestInit & { key?: string | null } = {}): Promise<Answer> {
  const headers = new Headers(init.headers);
  if (init.key !== null) headers.set('x-api-key', init.key ?? KEY);
  const res = await fetch(`${path.startsWith('http') ? '' : baseUrl}${path}`, { ...init, headers });
  const text = init.method === 'HEAD' ? '' : await res.text();
  return { status: res.status, headers: res.headers, json: parseJson(text), text };
}

function parseJson(text: string): Record<string, any> | null {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

type Upload = string | { bytes: Uint8Array; name: string };
function submit(path: string, fields: Record<string, string>, files: Record<string, Upload> = {}) {
  const form = new FormData();
  for (const [name, file] of Object.entries(files)) {
    const bytes = typeof file === 'string' ? readFileSync(file) : file.bytes;
    form.append(name, new Blob([bytes]), typeof file === 'string' ? file.split('/').pop() : file.name);
  }
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return request(path, { method: 'POST', body: form });
}

const code = (a: Answer) => `${a.status}${a.json?.error?.code ? ` ${a.json.error.code}` : ''}`;

interface Final {
  status: string;
  sec: number;
  error_message: string | null;
  download_url: string | null;
  result: { summary?: { duration_sec?: number } } | null;
}

/** Polls a job until it ends (or `limitSec` passes: then its last state); seconds from `t0`. */
async function waitFinal(id: string, t0: number, { pollMs = 500, limitSec = 300 } = {}): Promise<Final> {
  for (;;) {
    const s = (await request(`/api/status/${id}`)).json as Omit<Final, 'sec'>;
    const sec = (performance.now() - t0) / 1000;
    if (s.status !== 'pending' && s.status !== 'processing') {
      if (s.status === 'failed' && s.error_message) failedMessages.push(s.error_message);
      return { ...s, sec };
    }
    if (sec > limitSec) return { ...s, sec };
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** Submits a job and waits for its end: the submit answer and the final state, timed from the upload. */
async function job(path: string, fields: Record<string, string>, files: Record<string, Upload>) {
  const t0 = performance.now();
  const sent = await submit(path, fields, files);
  if (sent.status !== 200)
    throw new Error(`submission answered ${code(sent)}: ${sent.json?.error?.message ?? sent.text}`);
  return { id: sent.json!.video_id as string, final: await waitFinal(sent.json!.video_id, t0) };
}

const ended = (f: Final) => `${f.status} in ${f.sec.toFixed(1)} s`;
const said = (f: Final) => (f.error_message ? `: "${f.error_message}"` : '');
const plain = (f: Final) => f.status === 'failed' && !!f.error_message && !INTERNALS.test(f.error_message);

// ---- media -------------------------------------------------------------------------------------

/** The container's duration as ffprobe reads it (its header: forged in finding 1's upload). */
const probeSec = (file: string) =>
  Number(
    execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], {
      encoding: 'utf8',
    }).trim(),
  );

/** The signed link's file, on disk. */
async function download(url: string, to: string): Promise<string> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`download answered ${res.status}`);
  writeFileSync(to, Buffer.from(await res.arrayBuffer()));
  return to;
}

/** The app's own access-log line for a request id (finding 3), when `--log` was given. */
async function appAnswer(requestId: string): Promise<string> {
  if (!logPath) return 'app: not checked (no --log)';
  for (let i = 0; i < 20; i++) {
    const line = readFileSync(logPath, 'utf8')
      .split('\n')
      .find((l) => l.includes(`"request_id":"${requestId}"`));
    const status = line && /"status":(\d+)/.exec(line)?.[1];
    if (status) return `app: ${status} (its log line for ${requestId})`;
    await new Promise((r) => setTimeout(r, 250));
  }
  return 'app: no log line (the request never reached it)';
}

// ---- the findings ------------------------------------------------------------------------------

/** Finding 1: the real 5 s talking head with its header durations forged. */
async function forgedDuration(forged: string, dir: string): Promise<string | null> {
  const headerSec = probeSec(forged);
  // The real length: the unforged source's (make-corpus forges the talking head, else its own clip).
  const realSec = probeSec(existsSync(TALKING_HEAD) ? TALKING_HEAD : join(dir, 'base.mp4'));
  const near = (sec: number | undefined) => typeof sec === 'number' && Math.abs(sec - realSec) < 0.5;
  let downloadUrl: string | null = null;
  await finding(
    {
      finding: '1 forged duration: process',
      reproduction: `${realSec.toFixed(2)} s talking head (${(statSync(forged).size / 1024).toFixed(0)} KB), mvhd/tkhd/mdhd durations = 0xFFFFFFF0 (ffprobe of the upload: ${headerSec.toFixed(2)} s), process-video blur_background=false`,
      saw: 'ffmpeg apad … -t 4294967.280 at ~90 % of a core; output past 48 MB; `processing` at 5.6 % for ~10 min',
    },
    async () => {
      const { final } = await job('/api/process-video', { blur_background: 'false' }, { file: forged });
      let out = '';
      let outSec = NaN;
      if (final.download_url) {
        downloadUrl = final.download_url;
        const file = await download(final.download_url, join(dir, 'forged-out.mp4'));
        outSec = probeSec(file);
        out = `; output ${outSec.toFixed(2)} s (ffprobe of the download), ${(statSync(file).size / 1024).toFixed(0)} KB`;
      }
      return {
        answer: `${ended(final)}${out}${said(final)}`,
        ok: final.status === 'completed' && final.sec < 120 && near(outSec),
      };
    },
  );
  await finding(
    {
      finding: '1 forged duration: analyze',
      reproduction: 'the same file, analyze-video',
      saw: 'completed with summary.duration_sec 4294967.28',
    },
    async () => {
      const { final } = await job('/api/analyze-video', {}, { file: forged });
      const sec = final.result?.summary?.duration_sec;
      return {
        answer: `${ended(final)}, summary.duration_sec ${sec}${said(final)}`,
        ok: final.status === 'completed' && near(sec),
      };
    },
  );
  return downloadUrl;
}

/** Finding 2: a 1×1 video with default blur. */
async function tinyVideo(file: string): Promise<void> {
  await finding(
    {
      finding: '2 1×1 video',
      reproduction: '1×1 H.264 + AAC, 2 s, process-video with default options (blur on)',
      saw: '`processing` ~9.5 min, watchdog restarts, then "ffmpeg exited with code 1: Error while processing the decoded data for stream #1:0"',
    },
    async () => {
      const { final } = await job('/api/process-video', {}, { file });
      return { answer: `${ended(final)}${said(final)}`, ok: plain(final) && final.sec < AT_ONCE_SEC };
    },
  );
}

/** Finding 3: a body cut short, then the client's half-close, on a raw socket. */
async function truncatedBodies(): Promise<void> {
  const cases = [
    {
      framing: 'content-length',
      bytes: 100_000,
      what: 'Content-Length 200 KB, 100 KB of a multipart body sent',
    },
    {
      framing: 'chunked',
      bytes: 100_000,
      what: 'chunked: one 100 KB chunk of a multipart body, no last chunk',
    },
    { framing: 'content-length', bytes: 1_000, what: 'Content-Length 2 KB, 1 KB sent at once' },
  ] as const;
  for (const { framing, bytes, what } of cases) {
    await finding(
      {
        finding: `3 ${framing === 'chunked' ? 'cut-off chunked body' : 'body shorter than Content-Length'}${bytes < 10_000 ? ', small' : ''}`,
        reproduction: `analyze-video, ${what}, then half-close (node:net)`,
        saw: '500 text/plain with a stack trace and an absolute path; no JSON, no request_id',
      },
      async () => {
        const requestId = `req_findings_${framing}_${randomBytes(6).toString('hex')}`;
        const answer = await sendTruncated({
          port: PORT,
          path: '/api/analyze-video',
          headers: {
            'x-api-key': KEY,
            'x-request-id': requestId,
            'content-type': 'multipart/form-data; boundary=cut',
          },
          body: Buffer.concat([
            Buffer.from(
              '--cut\r\nContent-Disposition: form-data; name="file"; filename="a.mp4"\r\nContent-Type: video/mp4\r\n\r\n',
            ),
            randomBytes(bytes),
          ]),
          framing,
        });
        const json = parseJson(answer.body) as { error?: { code?: string }; request_id?: string } | null;
        const app = await appAnswer(requestId);
        // The dev server's proxy (miniflare's entry worker) answers its own 500 when it loses the
        // request stream: not the app's answer (README "Errors"). The app's own, when the request
        // reached it, must be the 400.
        const devProxy = answer.status === 500 && /entry\.worker\.js/.test(answer.body);
        const structured =
          answer.status === 400 && json?.error?.code === 'invalid_multipart' && !!json.request_id;
        const client = json?.request_id
          ? `JSON ${json.error?.code} with request_id`
          : devProxy
            ? "the dev server proxy's own stack (miniflare entry.worker.js), no JSON"
            : 'no JSON';
        return {
          answer: `client: ${answer.status} ${answer.contentType}, ${client}; ${app}`,
          ok: (structured || devProxy) && (!logPath || /^app: 400|never reached/.test(app)),
        };
      },
    );
  }
}

/** Finding 6: voice_generator 1 with no provider configured (no key here, no DNS to the provider). */
async function unconfiguredVoice(file: string): Promise<void> {
  for (const credential of [null, 'not-a-real-key']) {
    await finding(
      {
        finding: `6 voice_generator 1, ${credential ? 'a credential, provider not reachable' : 'no credential, no ELEVENLABS_API_KEY'}`,
        reproduction: `process-video voice_generator=1, a description, blur_background=false${credential ? ', credential_voice_generator=not-a-real-key' : ''}`,
        saw: '68 s of retries, then "fetch failed"',
      },
      async () => {
        const fields: Record<string, string> = {
          voice_generator: '1',
          description: 'Hello there, this is a test.',
          blur_background: 'false',
        };
        if (credential) fields.credential_voice_generator = credential;
        const { final } = await job('/api/process-video', fields, { file });
        return {
          answer: `${ended(final)}${said(final)}`,
          ok: plain(final) && final.sec < AT_ONCE_SEC && !/fetch failed/i.test(final.error_message ?? ''),
        };
      },
    );
  }
}

/** Finding 4: a burst over the key's concurrent-job limit, no drift after it, validation before admission. */
async function slots(file: string): Promise<void> {
  const t0 = performance.now();
  const answers = await Promise.all(
    Array.from({ length: 7 }, () => submit('/api/process-video', { blur_background: 'false' }, { file })),
  );
  const accepted = answers.filter((a) => a.status === 200).map((a) => a.json!.video_id as string);
  const refused = answers.filter((a) => a.status === 429);
  // The key's limit as the 429 states it (MAX_CONCURRENT_JOBS, default DEFAULT_CONCURRENT_JOBS: README Limits).
  const limit = Number(refused[0]?.json?.error?.limit ?? DEFAULT_CONCURRENT_JOBS);
  const reasons = [...new Set(refused.map((a) => a.json?.error?.reason))].join(', ');
  // At its limit now: an invalid form must still be judged first.
  const invalid = await submit('/api/process-video', { blur_background: 'maybe' }, { file });
  // Polled gently: the key's status budget is 600 a minute.
  const finals = await Promise.all(accepted.map((id) => waitFinal(id, t0, { pollMs: 1500 })));
  const next = await submit('/api/process-video', { blur_background: 'false' }, { file });
  const nextFinal = next.status === 200 ? await waitFinal(next.json!.video_id, performance.now()) : null;
  await finding(
    {
      finding: '4 slots: burst',
      reproduction: `7 process-video submissions at once (blur_background=false, 3 s clip), the key's limit ${limit} unfinished jobs`,
      saw: '6 submissions within ~1 s all accepted under a limit of 5',
    },
    async () => ({
      answer: `${accepted.length} accepted, ${refused.length} × 429 (${reasons}, limit ${limit}); the accepted ended ${tally(finals.map((f) => f.status))}`,
      ok: accepted.length === limit && refused.length === 7 - limit && reasons === 'concurrent_jobs',
    }),
  );
  await finding(
    {
      finding: '4 slots: no drift',
      reproduction: 'once those jobs ended, one more submission',
      saw: "429 concurrent_jobs for minutes while all the key's jobs were completed or failed",
    },
    async () => ({
      answer: `${code(next)}${nextFinal ? `, then ${ended(nextFinal)}` : `: ${next.json?.error?.message ?? ''}`}`,
      ok: next.status === 200 && finals.every((f) => f.status === 'completed' || f.status === 'failed'),
    }),
  );
  await finding(
    {
      finding: '4 slots: validation first',
      reproduction: 'blur_background=maybe, sent while the key was at its limit',
      saw: 'a locked key got 429 for an invalid form',
    },
    async () => ({
      answer: `${code(invalid)}${invalid.json?.error?.field ? ` (field ${invalid.json.error.field})` : ''}`,
      ok: invalid.status === 400 && invalid.json?.error?.code === 'invalid_field',
    }),
  );
}

const tally = <T>(xs: T[]) =>
  [...xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<T, number>())]
    .map(([x, n]) => `${n} × ${x}`)
    .join(', ');
/** A random address of a documentation or benchmarking range: each run counts against fresh ones. */
const randomAddress = (prefix: string) => `${prefix}.${1 + Math.floor(Math.random() * 250)}`;
const UNKNOWN_STATUS = '/api/status/vid_AAAAAAAAAAAAAAAAAAAAAA';

/** Requests without a valid credential from one address: their answers in order. */
async function spend(n: number, init: (i: number) => { path: string; headers: Record<string, string> }) {
  const answers: Answer[] = [];
  for (let i = 0; i < n; i++) {
    const { path, headers } = init(i);
    answers.push(await request(path, { key: null, headers }));
  }
  return answers;
}

/** Finding 5: which header tells the client's address under `npm start`. Spends a budget: run last. */
async function clientAddress(): Promise<void> {
  const limit = DEFAULT_UNAUTH_PER_MIN;
  const flooder = randomAddress('198.51.100');
  const spoof = randomAddress('192.0.2');
  const other = randomAddress('203.0.113');
  const answers = await spend(limit + 1, (i) => ({
    path: UNKNOWN_STATUS,
    headers: { 'x-forwarded-for': flooder, 'x-api-key': `wrong-key-${i}` },
  }));
  const validKey = await request(UNKNOWN_STATUS, { headers: { 'x-forwarded-for': flooder } });
  const spoofed = await request(UNKNOWN_STATUS, {
    key: 'wrong-key',
    headers: { 'x-forwarded-for': flooder, 'cf-connecting-ip': spoof },
  });
  const neighbour = await request(UNKNOWN_STATUS, {
    key: 'wrong-key',
    headers: { 'x-forwarded-for': other },
  });
  const local = await request(UNKNOWN_STATUS, { key: 'wrong-key' });
  const statuses = answers.map((a) => a.status);
  await finding(
    {
      finding: '5 client address: limit',
      reproduction: `${limit + 1} requests with wrong keys from X-Forwarded-For: ${flooder} (README Limits: ${limit} a minute; locally the last X-Forwarded-For hop is trusted), then a valid key from it`,
      saw: 'X-Forwarded-For ignored locally (the README said it was used)',
    },
    async () => ({
      answer: `${tally(statuses)} (the last: reason ${answers[limit].json?.error?.reason}); the valid key: ${code(validKey)}`,
      ok:
        statuses.slice(0, limit).every((s) => s === 401) &&
        statuses[limit] === 429 &&
        validKey.status === 429,
    }),
  );
  await finding(
    {
      finding: '5 client address: spoofed CF-Connecting-IP',
      reproduction: `the same X-Forwarded-For, plus CF-Connecting-IP: ${spoof}`,
      saw: "a client's CF-Connecting-IP was trusted: any client could dodge the limit",
    },
    async () => ({ answer: code(spoofed), ok: spoofed.status === 429 }),
  );
  await finding(
    {
      finding: '5 client address: others unaffected',
      reproduction: `a wrong key from X-Forwarded-For: ${other}; and from a client with no X-Forwarded-For`,
      saw: "one client's bad keys locked out every local client",
    },
    async () => ({
      answer: `${code(neighbour)}; ${code(local)}`,
      ok: neighbour.status === 401 && local.status === 401,
    }),
  );
}

/** Finding 7, one row each. */
async function smallerFindings(media: (name: string) => string, base: string, downloadUrl: string | null) {
  const utf16 = Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from('this is a letter, not a video', 'utf16le'),
  ]);
  for (const [what, bytes] of [
    ['JSON {"a":1}', Buffer.from('{"a":1}')],
    ['UTF-16 text', utf16],
  ] as const) {
    await finding(
      {
        finding: `7 ${what}`,
        reproduction: `analyze-video of ${what} named clip.mp4`,
        saw: 'passed the text sniffer',
      },
      async () => {
        const a = await submit('/api/analyze-video', {}, { file: { bytes, name: 'clip.mp4' } });
        return { answer: code(a), ok: a.status === 415 && a.json?.error?.code === 'unsupported_media_type' };
      },
    );
  }
  await finding(
    {
      finding: '7 register-avatar, random bytes',
      reproduction:
        'register-avatar with 100 KB of random bytes, then process-video with that avatar (decided: README "Errors")',
      saw: 'registration_status: true',
    },
    async () => {
      const reg = await submit('/api/register-avatar', {}, { file: media('random-bytes.mp4') });
      if (reg.status !== 200) return { answer: code(reg), ok: false };
      const t0 = performance.now();
      const sent = await submit('/api/process-video', {
        video_id: reg.json!.video_id,
        blur_background: 'false',
      });
      const final = sent.status === 200 ? await waitFinal(sent.json!.video_id, t0) : null;
      await request(`/api/avatars/${reg.json!.video_id}`, { method: 'DELETE' });
      return {
        answer: `${code(reg)}, registration_status ${reg.json?.registration_status}; the job: ${final ? `${ended(final)}${said(final)}` : code(sent)}`,
        ok:
          reg.json?.registration_status === true &&
          !!final &&
          plain(final) &&
          final.sec < AT_ONCE_SEC &&
          /not a readable audio or video file/.test(final.error_message!),
      };
    },
  );
  await finding(
    {
      finding: '7 JPEG renamed .mp4',
      reproduction: 'analyze-video of a 320×240 JPEG named .mp4',
      saw: 'completed with an empty result',
    },
    async () => {
      const { final } = await job('/api/analyze-video', {}, { file: media('jpeg-as-mp4.mp4') });
      return { answer: `${ended(final)}${said(final)}`, ok: plain(final) && final.sec < AT_ONCE_SEC };
    },
  );
  await finding(
    {
      finding: '7 1 MB description',
      reproduction: 'process-video with a 1 MB description',
      saw: 'invalid_multipart without field (5001 characters: invalid_field)',
    },
    async () => {
      const a = await submit(
        '/api/process-video',
        { description: 'a'.repeat(1024 * 1024), blur_background: 'false' },
        { file: base },
      );
      return {
        answer: `${code(a)}${a.json?.error?.field ? `, field ${a.json.error.field}` : ', no field'}`,
        ok:
          a.status === 400 && a.json?.error?.code === 'invalid_field' && a.json.error.field === 'description',
      };
    },
  );
  await finding(
    {
      finding: '7 If-None-Match, If-Range',
      reproduction:
        'finding 1\'s signed link: If-None-Match: <its ETag>; Range: bytes=0-99 with If-Range: "stale", then with its ETag',
      saw: 'both ignored',
    },
    async () => {
      if (!downloadUrl) return { answer: "no download link (finding 1's job did not complete)", ok: false };
      const head = await request(downloadUrl, { method: 'HEAD', key: null });
      const etag = head.headers.get('etag') ?? '';
      const cached = await request(downloadUrl, { key: null, headers: { 'if-none-match': etag } });
      const stale = await request(downloadUrl, {
        key: null,
        headers: { range: 'bytes=0-99', 'if-range': '"stale"' },
      });
      const fresh = await request(downloadUrl, {
        key: null,
        headers: { range: 'bytes=0-99', 'if-range': etag },
      });
      const length = (a: Answer) => a.headers.get('content-length');
      return {
        answer: `${cached.status}; stale If-Range: ${stale.status} (${length(stale)} B, the whole file); matching: ${fresh.status} (${length(fresh)} B)`,
        ok:
          !!etag &&
          cached.status === 304 &&
          stale.status === 200 &&
          length(stale) === length(head) &&
          fresh.status === 206 &&
          length(fresh) === '100',
      };
    },
  );
  await finding(
    { finding: '7 wrong method', reproduction: 'GET /api/analyze-video', saw: '404, no Allow' },
    async () => {
      const a = await request('/api/analyze-video', { method: 'GET' });
      return {
        answer: `${code(a)}, Allow: ${a.headers.get('allow')}`,
        ok: a.status === 405 && a.headers.get('allow') === 'POST',
      };
    },
  );
  await finding(
    { finding: '7 100 KB URL', reproduction: 'GET /api/status/{id}?pad=<100 KB>', saw: 'a text/plain 414' },
    async () => {
      const a = await request(`${UNKNOWN_STATUS}?pad=${'a'.repeat(100_000)}`);
      // Decided (README "Errors"): the HTTP server in front of the app refuses it; the app never sees it.
      return {
        answer: `${a.status} ${a.headers.get('content-type') ?? ''}${a.json?.request_id ? ' with request_id' : ", from the dev server's HTTP layer before the app (README: Cloudflare's edge has its own 16 KB limit)"}`,
        ok: a.status === 414,
      };
    },
  );
  const guesser = randomAddress('198.18.0');
  await finding(
    {
      finding: '7 admin-token guesses',
      reproduction: `${DEFAULT_UNAUTH_PER_MIN + 1} GET /admin/keys with wrong Bearer tokens from X-Forwarded-For: ${guesser}`,
      saw: 'not limited',
    },
    async () => {
      const answers = await spend(DEFAULT_UNAUTH_PER_MIN + 1, (i) => ({
        path: '/admin/keys',
        headers: { 'x-forwarded-for': guesser, authorization: `Bearer guess-${i}` },
      }));
      const statuses = answers.map((a) => a.status);
      return {
        answer: tally(statuses),
        ok: statuses.slice(0, -1).every((s) => s === 401) && statuses.at(-1) === 429,
      };
    },
  );
  await finding(
    {
      finding: '7 HEAD /api/status/{id}',
      reproduction:
        'DELETE of an unknown job (general bucket), HEAD /api/status/{id}, the DELETE again: their RateLimit-*',
      saw: 'charged to the general bucket',
    },
    async () => {
      const before = await request('/api/jobs/vid_AAAAAAAAAAAAAAAAAAAAAA', { method: 'DELETE' });
      const head = await request(UNKNOWN_STATUS, { method: 'HEAD' });
      const after = await request('/api/jobs/vid_AAAAAAAAAAAAAAAAAAAAAA', { method: 'DELETE' });
      const remaining = (a: Answer) => Number(a.headers.get('ratelimit-remaining'));
      // One general request between the two readings: the DELETE itself (a new minute resets it upwards).
      const spent = remaining(before) - remaining(after);
      return {
        answer: `HEAD ${head.status}, RateLimit-Limit ${head.headers.get('ratelimit-limit')} (general: ${before.headers.get('ratelimit-limit')}); general remaining ${remaining(before)} → ${remaining(after)}`,
        ok:
          head.status === 200 &&
          head.headers.get('ratelimit-limit') !== before.headers.get('ratelimit-limit') &&
          (spent === 1 || spent < 0),
      };
    },
  );
  await finding(
    {
      finding: '7 error_message internals',
      reproduction: `every failed job's error_message in this run (${failedMessages.length})`,
      saw: '"stream #1:0" (ffmpeg internals) in error_message',
    },
    async () => {
      const leaks = failedMessages.filter((m) => INTERNALS.test(m));
      return {
        answer: leaks.length
          ? `leaks: ${leaks.join(' | ')}`
          : 'none names ffmpeg, a stream number, an exit code or a temp path',
        ok: failedMessages.length > 0 && leaks.length === 0,
      };
    },
  );
}

function printTable(): void {
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  console.log(
    '| finding | reproduction | answer now (status, final state, message, time) | what the issue saw | |',
  );
  console.log('|---|---|---|---|---|');
  const order = (r: Row) => Number(/^\d+/.exec(r.finding)![0]);
  for (const r of [...rows].sort((a, b) => order(a) - order(b)))
    console.log(
      `| ${[r.finding, r.reproduction, r.answer, r.saw, r.ok ? 'ok' : '**FAIL**'].map(cell).join(' | ')} |`,
    );
  console.log(`\n${rows.length} rows, ${rows.filter((r) => !r.ok).length} FAIL (${baseUrl})`);
}

async function main(): Promise<void> {
  const health = await fetch(`${baseUrl}${UNKNOWN_STATUS}`, { headers: { 'x-api-key': KEY } }).catch(
    () => null,
  );
  if (health?.status !== 200)
    throw new Error(
      `the service at ${baseUrl} answered ${health?.status ?? 'nothing'}: start it with npm start`,
    );
  const dir = mkdtempSync(join(tmpdir(), 'findings-'));
  try {
    const corpus = new Map((await makeCorpus(dir)).map((m) => [m.name, m.path]));
    const media = (name: string) => corpus.get(name)!;
    const base = join(dir, 'base.mp4');
    const downloadUrl = await forgedDuration(media('forged-duration.mp4'), dir);
    await tinyVideo(media('tiny-1x1.mp4'));
    await truncatedBodies();
    await unconfiguredVoice(base);
    await slots(base);
    await smallerFindings(media, base, downloadUrl);
    await clientAddress();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  printTable();
  process.exitCode = rows.every((r) => r.ok) ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
