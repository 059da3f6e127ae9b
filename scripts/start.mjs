// `npm start`: installs what is missing, then runs the media container service (Node) and the
// API Worker with its edge-audio Worker (wrangler dev, with R2, Durable Objects and Queues
// emulated locally).
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { devConfig, restartDelayMs, writeSecretsFile } from './dev-config.mjs';
import { projectEnv, ROOT, setup } from './setup.mjs';

setup();
const port = Number(process.env.PORT ?? 8787);
const containerPort = Number(process.env.CONTAINER_PORT ?? 8788);
const persistTo = process.env.PERSIST_DIR ?? join(ROOT, '.wrangler', 'state');
const config = devConfig();
// CONTAINER_URL: a media service that already runs elsewhere (e.g. the built image, `npm run
// image:smoke`); none is started here then.
const externalContainer = process.env.CONTAINER_URL;
const containerUrl = externalContainer || `http://127.0.0.1:${containerPort}`;

/** The private file wrangler reads the secrets from (see below); removed when the stack stops. */
let secretsFile = null;
const removeSecrets = () => secretsFile && rmSync(secretsFile, { force: true });
const children = new Set();
/** Runs a child; when it exits, `onExit` decides (default: the whole stack stops with it). */
function run(name, cmd, args, env, onExit = (code) => shutdown(code ?? 1)) {
  const child = spawn(cmd, args, {
    cwd: ROOT,
    env: projectEnv({ DEV_API_KEY: undefined, ...env }),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.add(child);
  child.on('exit', (code, signal) => {
    children.delete(child);
    if (stopping) return;
    console.log(`[start] ${name} exited (${signal ?? code})`);
    onExit(code, signal);
  });
  return child;
}
let stopping = false;
function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  console.log('[start] stopping');
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  removeSecrets();
  setTimeout(() => process.exit(code), 1500).unref();
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));
process.on('exit', () => removeSecrets());

console.log(`[start] media container → ${containerUrl}`);
// MEDIA_NODE_FLAGS: Node flags for the media container only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
// (Node refuses --cpu-prof in NODE_OPTIONS; the vision workers inherit the profiling flags).
const mediaNodeFlags = (process.env.MEDIA_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
// A 64 MB young generation (Node's default: 16): the renders allocate per frame, and a smaller one
// promotes and collects much more of it. The old generation may grow to twice its live size before
// a full collection: V8's own factor leaves little room on the media service's small heap, which the
// frames' buffers (counted as external memory) fill several times a second, each time a full
// mark-compact. The CPU both save: docs/benchmarks.md. The same flags are in containers/media/Dockerfile's CMD.
const MEDIA_V8_FLAGS = ['--max-semi-space-size=64', '--heap-growing-percent=100'];
// One Node process (tsx as a loader, not its CLI, which would run the service as a child of its own):
// a `kill -9` of the service leaves no orphan holding the port, and the restart below can bind it.
const mediaArgs = [
  ...MEDIA_V8_FLAGS,
  ...mediaNodeFlags,
  '--import',
  'tsx',
  'containers/media/server/main.ts',
];
const mediaEnv = { PORT: String(containerPort), HOST: '127.0.0.1' };
/**
 * The media container is supervised (issue #34): when it dies (a crash, `kill -9`, out of memory)
 * it is started again after `restartDelayMs` while the Worker keeps serving; the jobs whose
 * container work was cut off are retried by the Worker (docs/limits.md, Faults). A service that
 * keeps dying within a minute of its start waits longer each time (1, 2, 4 … 10 s).
 */
let mediaFailures = 0;
function startMedia() {
  const started = Date.now();
  run('media container', 'node', mediaArgs, mediaEnv, () => {
    mediaFailures = Date.now() - started > 60_000 ? 1 : mediaFailures + 1;
    const delayMs = restartDelayMs(mediaFailures);
    console.log(`[start] restarting the media container in ${delayMs / 1000} s`);
    setTimeout(() => stopping || startMedia(), delayMs);
  });
}
if (!externalContainer) startMedia();

// Settings from wrangler.toml [vars] that the environment may override for this run.
const OVERRIDABLE =
  /^(STORAGE_URL|MAX_UPLOAD_BYTES|DOWNLOAD_URL_TTL_SEC|EDGE_AUDIO_MAX_BYTES|JOB_[A-Z_]+|RATE_LIMIT_PER_MIN|STATUS_RATE_LIMIT_PER_MIN|STATUS_MAX_HELD_POLLS|UNAUTH_RATE_LIMIT_PER_MIN|MAX_CONCURRENT_JOBS|MAX_MEDIA_DURATION_SEC|CLIENT_ADDRESS_HEADER|QUEUE_DETACHED_RUNS|VAD_MAX_BATCH|RETENTION_DAYS|IDEMPOTENCY_TTL_SEC|UPLOAD_[A-Z_]+|WEBHOOK_[A-Z_]+)$/;
const overrides = Object.fromEntries(
  Object.entries(process.env).filter(([k, v]) => OVERRIDABLE.test(k) && v !== ''),
);
// The local queue delivers one batch at a time: jobs run detached, so a slow one holds no other (wrangler.toml).
// No header tells a local client's address (the dev server keeps a client's own CF-Connecting-IP):
// all share one; X-Forwarded-For only when CLIENT_ADDRESS_HEADER says so (docs/security.md).
// Webhooks may reach local receivers (loopback only; WEBHOOK_ALLOW_LOOPBACK=0 restores the production
// guard), and names are not resolved (no public resolver is asked; WEBHOOK_DOH_URL sets one).
const vars = {
  QUEUE_DETACHED_RUNS: '1',
  CLIENT_ADDRESS_HEADER: 'none',
  WEBHOOK_ALLOW_LOOPBACK: '1',
  WEBHOOK_DOH_URL: '',
  ...overrides,
  CONTAINER_URL: containerUrl,
};
const varArgs = Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]);
// Secrets never in argv (`ps` shows it to every local user): the development keys and .dev.vars'
// secrets go to wrangler in a file only this user can read, removed when the stack stops.
secretsFile = writeSecretsFile(config);
// Two configs, one process: the API Worker (primary) and the edge-audio Worker (ffmpeg.wasm) that it
// reaches through its EDGE_AUDIO service binding.
run(
  'wrangler',
  'wrangler',
  [
    'dev',
    '-c',
    'wrangler.toml',
    '-c',
    'wasm/edge-audio/wrangler.toml',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--persist-to',
    persistTo,
    '--inspector-port',
    String(port + 1442),
    '--show-interactive-dev-session=false',
    '--env-file',
    secretsFile,
    ...varArgs,
  ],
  {
    WRANGLER_SEND_METRICS: 'false',
    // No local trace store: wrangler's dev observability records every request's full URL (an
    // `?api_key=` or a download `token=` included) in .wrangler/state/v3/observability (issue #34).
    X_LOCAL_OBSERVABILITY: 'false',
    // No local data explorer: /cdn-cgi/local/explorer would show R2 and Durable Objects without a key.
    X_LOCAL_EXPLORER: 'false',
  },
);

const keys = config.DEV_API_KEY.split(',')
  .map((k) => k.trim())
  .filter(Boolean);
// The keys are shown on a terminal only: a log file or a test's captured output gets their first
// characters (the keys are in .dev.vars, or the DEV_API_KEY the caller set).
const shown = process.stdout.isTTY ? keys : keys.map((k) => `${k.slice(0, 6)}…`);
console.log(`
[start] API      http://127.0.0.1:${port}
[start] API key  ${shown.join('  ')}   (send as X-API-Key, or ?api_key=; DEV_API_KEY in .dev.vars)
[start] admin    ADMIN_TOKEN is in .dev.vars (npm run keys -- list)
[start] try:     curl -H "X-API-Key: ${shown[0]}" -F file=@video.mp4 http://127.0.0.1:${port}/api/analyze-video
`);

// The first health check warms the API Worker (the speech analytics, the VAD's session, ffmpeg.wasm's core)
// before any job needs them: otherwise the first job after a start pays for them (src/pipeline/warm-up.ts).
const HEALTH_POLL_MS = 500;
const HEALTH_WAIT_MS = 180_000;
async function warmUpWorker() {
  const until = Date.now() + HEALTH_WAIT_MS;
  while (!stopping && Date.now() < until) {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null);
    await res?.body?.cancel();
    if (res?.ok) return console.log('[start] API up; warming its edge audio and VAD');
    await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS));
  }
}
void warmUpWorker();
