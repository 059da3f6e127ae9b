// Runs a media service for the smoke test and tells when it is ready: the built image (docker
// where an engine answers; else `buildah run` in the image's own root with the host's network,
// since no container runtime works on these machines), or `npm start`'s own Node service.
// Both print the service's log lines, so readiness and the engines loaded are read the same way.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { IMAGE, IMAGE_PORT, ROOT } from './config.mjs';
import { buildEngine, capture, storageArgs } from './tools.mjs';

const CONTAINER_NAME = 'video-api-media-smoke';

/** The log lines that mean each engine has loaded (containers/media/server/main.ts). */
export const READY_LINES = {
  listening: /media container listening on/,
  piper: /Piper voice loaded/,
  vision: /vision workers ready/,
};

/**
 * Follows a process's output: `seen[key]` gets the seconds from `t0` to the first line matching
 * READY_LINES[key]; the lines are kept for the report.
 */
function follow(child, t0, label) {
  const seen = {};
  const lines = [];
  const onData = (chunk) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) {
      lines.push(line);
      if (process.env.IMAGE_SMOKE_VERBOSE) console.log(`  [${label}] ${line}`);
      for (const [key, re] of Object.entries(READY_LINES)) {
        if (!(key in seen) && re.test(line)) seen[key] = (performance.now() - t0) / 1000;
      }
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return { seen, lines };
}

async function waitFor(check, timeoutMs, what) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > until) throw new Error(`${what}: not ready after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const healthy = (port) => () => fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok);

function stopGroup(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    const kill = (sig) => {
      try {
        process.kill(-child.pid, sig);
      } catch {
        // already gone
      }
    };
    kill('SIGTERM');
    setTimeout(() => kill('SIGKILL'), 10_000).unref();
  });
}

/**
 * Starts the image's service on `port` (host network). Returns its timings (`createSec`: making
 * the container's root, before the service starts; `healthSec`: start to the first /health
 * answer; `seen`: start to each READY_LINES line), the directory its processes run in (for
 * /proc sampling) and `stop()`.
 */
export async function startImageService(port) {
  const engine = buildEngine();
  const c0 = performance.now();
  let child;
  let createSec;
  let t0;
  let config;
  if (engine === 'docker') {
    spawnSync('docker', ['rm', '-f', CONTAINER_NAME], { stdio: 'ignore' });
    capture('docker', ['create', '--name', CONTAINER_NAME, '-p', `127.0.0.1:${port}:${IMAGE_PORT}`, IMAGE]);
    config = JSON.parse(capture('docker', ['image', 'inspect', '-f', '{{json .Config}}', IMAGE]));
    createSec = (performance.now() - c0) / 1000;
    t0 = performance.now();
    child = spawn('docker', ['start', '-a', CONTAINER_NAME], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } else {
    const bah = (...args) => capture('buildah', [...storageArgs(), ...args]);
    spawnSync('buildah', [...storageArgs(), 'rm', CONTAINER_NAME], { stdio: 'ignore' });
    bah('from', '--pull=never', '--name', CONTAINER_NAME, IMAGE);
    config = JSON.parse(bah('inspect', '--type', 'image', IMAGE)).Docker.config;
    createSec = (performance.now() - c0) / 1000;
    t0 = performance.now();
    // The image's own CMD, user and working directory; its port and address set as `docker run -e` would.
    child = spawn(
      'buildah',
      [
        ...storageArgs(),
        'run',
        '--isolation',
        'chroot',
        '--network',
        'host',
        '--env',
        `PORT=${port}`,
        '--env',
        'HOST=127.0.0.1',
        CONTAINER_NAME,
        '--',
        ...config.Cmd,
      ],
      { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
  }
  const log = follow(child, t0, 'image');
  const exited = new Promise((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`the image's service exited (${code}):\n${log.lines.join('\n')}`)),
    ),
  );
  await Promise.race([waitFor(healthy(port), 180_000, "the image's service"), exited]);
  const healthSec = (performance.now() - t0) / 1000;
  await Promise.race([waitForLines(log.seen, 180_000), exited]);
  return {
    createSec,
    healthSec,
    seen: log.seen,
    lines: log.lines,
    procRoot: serviceCwd(config.Cmd.at(-1)),
    async stop() {
      exited.catch(() => {});
      await stopGroup(child);
      if (engine === 'docker') spawnSync('docker', ['rm', '-f', CONTAINER_NAME], { stdio: 'ignore' });
      else spawnSync('buildah', [...storageArgs(), 'rm', CONTAINER_NAME], { stdio: 'ignore' });
    },
  };
}

/**
 * The host path of the working directory of the image's service process (the one running
 * `script` in a root other than ours), so /proc sampling (bench/support/service-procs.ts) finds
 * the service and its children by their working directory, as it does for `npm start`.
 */
function serviceCwd(script) {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readlinkSync(`/proc/${pid}/root`) === '/') continue;
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(script)) continue;
      return readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      // ended, or not ours to read
    }
  }
  throw new Error(`no process runs ${script} in the image's root`);
}

/** Waits until every engine's READY_LINES line was seen (the models preload after the listen). */
function waitForLines(seen, timeoutMs) {
  return waitFor(async () => Object.keys(READY_LINES).every((k) => k in seen), timeoutMs, 'the engines');
}

/**
 * `npm start` (scripts/start.mjs): the API Worker under wrangler dev, and, unless `containerUrl`
 * is given, its own media service on `servicePort`. Resolves once the API answers (and the own
 * media service's engines have loaded).
 */
export async function startApi({ apiPort, servicePort, containerUrl, persistDir }) {
  const t0 = performance.now();
  const env = {
    ...process.env,
    PORT: String(apiPort),
    CONTAINER_PORT: String(servicePort),
    PERSIST_DIR: persistDir,
  };
  if (containerUrl) env.CONTAINER_URL = containerUrl;
  else delete env.CONTAINER_URL;
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = follow(child, t0, containerUrl ? 'api' : 'npm start');
  const exited = new Promise((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`npm start exited (${code}):\n${log.lines.slice(-30).join('\n')}`)),
    ),
  );
  const apiUp = () => fetch(`http://127.0.0.1:${apiPort}/api/status/smoke-probe`).then(() => true);
  await Promise.race([waitFor(apiUp, 180_000, 'wrangler dev'), exited]);
  let healthSec;
  if (!containerUrl) {
    await Promise.race([waitFor(healthy(servicePort), 180_000, 'the media service'), exited]);
    healthSec = (performance.now() - t0) / 1000;
    await Promise.race([waitForLines(log.seen, 180_000), exited]);
  }
  return {
    healthSec,
    seen: log.seen,
    lines: log.lines,
    async stop() {
      exited.catch(() => {});
      await stopGroup(child);
    },
  };
}
