/**
 * Test support (Node side): starts the real media container service and a static server
 * for media fixtures, so tests inside workerd can reach both over loopback.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, normalize, resolve } from 'node:path';
import { answerDoh } from './doh.js';
import { answerMediaProxy } from './media-proxy.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const SHARED_MEDIA = resolve(ROOT, '../shared/media');

/** Polls until `url` answers 2xx (hand-rolled: the workers suite's global setup runs outside vitest's test context, without `vi`). */
export async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function startMediaService(
  port: number,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['containers/media/server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitFor(`http://127.0.0.1:${port}/health`);
  return child;
}

/**
 * Serves files under the given roots: /shared/... from ../shared/media, /generated/... from a temp
 * dir; /dns-query, a DNS-over-HTTPS stub for the webhook tests (`doh.ts`); and, given `mediaUrl`,
 * a counting proxy in front of the media service (`media-proxy.ts`).
 */
export async function startFixtureServer(
  port: number,
  roots: Record<string, string>,
  { mediaUrl }: { mediaUrl?: string } = {},
): Promise<Server> {
  const server = createServer((req, res) => {
    if (answerDoh(req, res)) return;
    if (mediaUrl && answerMediaProxy(req, res, mediaUrl)) return;
    const url = new URL(req.url ?? '/', 'http://x');
    const [, root, ...rest] = url.pathname.split('/');
    const base = roots[root ?? ''];
    const path = base ? normalize(join(base, decodeURIComponent(rest.join('/')))) : '';
    if (!base || !path.startsWith(base) || !existsSync(path) || !statSync(path).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-length': statSync(path).size });
    createReadStream(path).pipe(res);
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return server;
}
