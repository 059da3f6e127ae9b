/**
 * Test support (Node side): a counting proxy in front of the real media service, for Worker tests
 * that need to see what crosses from the Worker to the container. `/media-proxy/<path>` forwards
 * to the media service and counts each request's body bytes by job (`x-job-id`) and route;
 * `GET /media-proxy-stats/<job>` answers the counts. `POST /media-proxy-drop/<job>` arms one
 * fault: after the job's next probe answers, and before the Worker reads that answer, the proxy
 * asks the container to end the job (`DELETE /jobs/<job>`), which removes its stored source, as a
 * restart or a sweep would.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'node:http';
import { MEDIA_ROUTES, mediaPath } from '../../src/contract/media-protocol.js';

interface JobCounts {
  /** `METHOD route` → request body bytes, summed. */
  bytes: Record<string, number>;
  /** `METHOD route` → requests. */
  requests: Record<string, number>;
}

const counts = new Map<string, JobCounts>();
const dropAfterProbe = new Set<string>();

const routeOf = (path: string) =>
  path.split('?')[0]!.replace(/^\/jobs\/[^/]+\/source$/, MEDIA_ROUTES.jobSource);

/** Answers the proxy's paths; false for any other path (the fixture server serves it). */
export function answerMediaProxy(req: IncomingMessage, res: ServerResponse, mediaUrl: string): boolean {
  const url = new URL(req.url ?? '/', 'http://x');
  const [, head, ...rest] = url.pathname.split('/');
  if (head === 'media-proxy-stats') {
    const job = decodeURIComponent(rest.join('/'));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(counts.get(job) ?? { bytes: {}, requests: {} }));
    return true;
  }
  if (head === 'media-proxy-drop') {
    dropAfterProbe.add(decodeURIComponent(rest.join('/')));
    res.writeHead(204).end();
    return true;
  }
  if (head !== 'media-proxy') return false;
  const path = `/${rest.join('/')}${url.search}`;
  const job = String(req.headers['x-job-id'] ?? '');
  const key = `${req.method} ${routeOf(path)}`;
  const tally = counts.get(job) ?? { bytes: {}, requests: {} };
  counts.set(job, tally);
  tally.requests[key] = (tally.requests[key] ?? 0) + 1;
  const target = new URL(mediaUrl);
  const upstream = request(
    { host: target.hostname, port: target.port, method: req.method, path, headers: req.headers },
    async (answer) => {
      if (job && routeOf(path) === MEDIA_ROUTES.probe && dropAfterProbe.delete(job)) {
        const body: Buffer[] = [];
        for await (const chunk of answer) body.push(chunk as Buffer);
        await fetch(`${mediaUrl}${mediaPath.job(job)}`, { method: 'DELETE' });
        res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(body));
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', (err) => res.destroy(err));
  res.on('close', () => upstream.destroy());
  req.on('data', (chunk: Buffer) => (tally.bytes[key] = (tally.bytes[key] ?? 0) + chunk.length));
  req.pipe(upstream);
  return true;
}
