/**
 * The real `npm start` stack for e2e tests (wrangler dev + the media container process), on
 * ports of the caller's choosing, with its own state directory; and a same-origin front for
 * the web page while `createApp` does not mount it yet.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, waitFor } from '../../support/services.js';

export interface StackOptions {
  port: number;
  containerPort: number;
  /** Comma-separated development keys. */
  keys: string;
  env?: Record<string, string>;
  /** Every line the stack prints is appended here too (`log()` keeps only the last ones). */
  logFile?: string;
}

export interface Stack {
  base: string;
  persist: string;
  /** Process id of `scripts/start.mjs` (the root of the stack's process tree). */
  pid: number;
  /** The last lines the stack printed. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts `node scripts/start.mjs` in its own process group and waits for /healthz.
 * @example
 * const stack = await startStack({ port: 18987, containerPort: 18988, keys: 'k1' });
 */
export async function startStack({
  port,
  containerPort,
  keys,
  env = {},
  logFile,
}: StackOptions): Promise<Stack> {
  const persist = mkdtempSync(join(tmpdir(), 'e2e-ux-state-'));
  const child: ChildProcess = spawn('node', ['scripts/start.mjs'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      CONTAINER_PORT: String(containerPort),
      PERSIST_DIR: persist,
      DEV_API_KEY: keys,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  const keep = (d: Buffer) => {
    if (logFile) appendFileSync(logFile, d);
    log = (log + d.toString()).slice(-8000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const base = `http://127.0.0.1:${port}`;
  // The stack runs in its own process group: it would outlive a caller that exits without stop().
  const killGroup = () => {
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  };
  process.once('exit', killGroup);
  try {
    await waitFor(`${base}/healthz`, 150_000);
  } catch (err) {
    killGroup();
    throw new Error(`${(err as Error).message}\n--- stack log ---\n${log}`);
  }
  return {
    base,
    persist,
    pid: child.pid!,
    log: () => log,
    async stop() {
      process.off('exit', killGroup);
      if (child.pid && child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        killGroup(); // the whole group: wrangler, workerd, the media service
        await exited;
      }
      rmSync(persist, { recursive: true, force: true });
    },
  };
}

/**
 * An origin that serves `GET` of `paths` (default `/`) from `handler` and proxies everything
 * else to `target`, so the page and the API share one origin (as when the Worker mounts it).
 */
export async function startPageFront(
  port: number,
  target: string,
  handler: (req: Request) => Promise<Response>,
  paths: string[] = ['/'],
): Promise<{ origin: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server: Server = createServer(async (req, res) => {
    if (req.method === 'GET' && paths.includes((req.url ?? '/').split('?')[0])) {
      const page = await handler(new Request(`http://127.0.0.1:${port}${req.url}`));
      res.writeHead(page.status, Object.fromEntries(page.headers));
      res.end(Buffer.from(await page.arrayBuffer()));
      return;
    }
    const proxied = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    proxied.on('error', () => res.writeHead(502).end());
    req.pipe(proxied);
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}
