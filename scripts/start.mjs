// `npm start`: installs what is missing, then runs the media container service (Node) and the
// API Worker with its edge-audio Worker (wrangler dev, with R2, Durable Objects and Queues
// emulated locally).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { devConfig } from './dev-config.mjs';
import { projectEnv, ROOT, setup } from './setup.mjs';

setup();
const port = Number(process.env.PORT ?? 8787);
const containerPort = Number(process.env.CONTAINER_PORT ?? 8788);
const persistTo = process.env.PERSIST_DIR ?? join(ROOT, '.wrangler', 'state');
const config = devConfig();
const containerUrl = `http://127.0.0.1:${containerPort}`;

const children = [];
function run(name, cmd, args, env) {
  const child = spawn(cmd, args, {
    cwd: ROOT,
    env: projectEnv(env),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    console.log(`[start] ${name} exited (${signal ?? code}); stopping`);
    shutdown(code ?? 1);
  });
  children.push(child);
  return child;
}
let stopping = false;
function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 1500).unref();
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

console.log(`[start] media container → ${containerUrl}`);
// MEDIA_NODE_FLAGS: Node flags for the media container only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
// (Node refuses --cpu-prof in NODE_OPTIONS; the vision workers inherit the profiling flags).
const mediaNodeFlags = (process.env.MEDIA_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
// A 64 MB young generation (Node's default: 16): the renders allocate per frame, and the smaller
// one promoted and collected ≈ 3–4 CPU-s more per 40 s of every-option output. The old generation
// may grow to twice its live size before a full collection (V8's own factor left ≈ 12 MB of room
// on the media service's ≈ 28 MB heap: the frames' buffers, counted as external memory, filled it
// 5–7 times a second, 100+ mark-compacts per render): ≈ 2 CPU-s less per 40 s of every-option
// output (README "Measured (2 cores)"). The same flags are in containers/media/Dockerfile's CMD.
const MEDIA_V8_FLAGS = ['--max-semi-space-size=64', '--heap-growing-percent=100'];
run('media container', 'tsx', [...MEDIA_V8_FLAGS, ...mediaNodeFlags, 'containers/media/src/main.ts'], {
  PORT: String(containerPort),
  HOST: '127.0.0.1',
});

// Settings from wrangler.toml [vars] that the environment may override for this run.
const OVERRIDABLE =
  /^(STORAGE_URL|MAX_UPLOAD_BYTES|DOWNLOAD_URL_TTL_SEC|EDGE_AUDIO_MAX_BYTES|JOB_[A-Z_]+|RATE_LIMIT_PER_MIN|STATUS_RATE_LIMIT_PER_MIN|UNAUTH_RATE_LIMIT_PER_MIN|MAX_CONCURRENT_JOBS|MAX_MEDIA_DURATION_SEC|CLIENT_ADDRESS_HEADER|QUEUE_DETACHED_RUNS|VAD_MAX_BATCH|RETENTION_DAYS|IDEMPOTENCY_TTL_SEC|UPLOAD_[A-Z_]+|WEBHOOK_[A-Z_]+)$/;
const overrides = Object.fromEntries(
  Object.entries(process.env).filter(([k, v]) => OVERRIDABLE.test(k) && v !== ''),
);
// The local queue delivers one batch at a time: jobs run detached, so a slow one holds no other (wrangler.toml).
// No Cloudflare edge locally: the client address comes from X-Forwarded-For (README Limits).
// Webhooks may reach local receivers (loopback only; WEBHOOK_ALLOW_LOOPBACK=0 restores the production
// guard), and names are not resolved (no public resolver is asked; WEBHOOK_DOH_URL sets one).
const vars = {
  QUEUE_DETACHED_RUNS: '1',
  CLIENT_ADDRESS_HEADER: 'X-Forwarded-For',
  WEBHOOK_ALLOW_LOOPBACK: '1',
  WEBHOOK_DOH_URL: '',
  ...overrides,
  CONTAINER_URL: containerUrl,
  DEV_API_KEY: config.DEV_API_KEY,
};
const varArgs = Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]);
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
    ...varArgs,
  ],
  {
    WRANGLER_SEND_METRICS: 'false',
  },
);

const keys = config.DEV_API_KEY.split(',')
  .map((k) => k.trim())
  .filter(Boolean);
console.log(`
[start] API      http://127.0.0.1:${port}
[start] API key  ${keys.join('  ')}   (send as X-API-Key, or ?api_key=)
[start] admin    ADMIN_TOKEN is in .dev.vars (npm run keys -- list)
[start] try:     curl -H "X-API-Key: ${keys[0]}" -F file=@video.mp4 http://127.0.0.1:${port}/api/analyze-video
`);
