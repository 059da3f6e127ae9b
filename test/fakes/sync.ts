/**
 * @module test/fakes/sync
 * A local stand-in for a sync.so-style lip-sync API: `POST /v2/generate` (multipart `video`,
 * `audio`, `model`, `options`; header `x-api-key`) → `{id, status: 'PENDING'}`; `GET
 * /v2/generate/{id}` → PENDING, then PROCESSING, then COMPLETED with `outputUrl`; the output
 * is the uploaded video (a real MP4). Key `bad-key` → 401; model other than lipsync-2 → 400.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSync extends AsyncDisposable {
  url: string;
  created: Array<{ model: string; apiKey?: string; videoBytes: number; audioBytes: number }>;
  close(): Promise<void>;
}

export async function startFakeSync(): Promise<FakeSync> {
  const jobs = new Map<string, { polls: number; video: Uint8Array }>();
  const created: FakeSync['created'] = [];
  let url = '';
  const server: Server = createServer(async (req, res) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const apiKey = req.headers['x-api-key'] as string | undefined;
    if (apiKey === 'bad-key') return json(401, { message: 'Invalid API key', statusCode: 401 });
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'POST' && path === '/v2/generate') {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const form = await new Request('http://x', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type']! },
        body: Buffer.concat(chunks),
      }).formData();
      const model = String(form.get('model'));
      if (model !== 'lipsync-2') return json(400, { message: `Unknown model ${model}` });
      const video = form.get('video') as Blob | null;
      const audio = form.get('audio') as Blob | null;
      if (!video || !audio) return json(400, { message: 'video and audio are required' });
      const id = `gen-${jobs.size + 1}`;
      jobs.set(id, { polls: 0, video: new Uint8Array(await video.arrayBuffer()) });
      created.push({ model, apiKey, videoBytes: video.size, audioBytes: audio.size });
      return json(201, { id, status: 'PENDING', model, createdAt: new Date().toISOString() });
    }
    const poll = /^\/v2\/generate\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && poll) {
      const job = jobs.get(poll[1]);
      if (!job) return json(404, { message: 'Generation not found' });
      job.polls++;
      const status = job.polls === 1 ? 'PENDING' : job.polls === 2 ? 'PROCESSING' : 'COMPLETED';
      return json(200, {
        id: poll[1],
        status,
        model: 'lipsync-2',
        outputUrl: status === 'COMPLETED' ? `${url}/files/${poll[1]}.mp4` : null,
        error: null,
      });
    }
    const file = /^\/files\/([^/]+)\.mp4$/.exec(path);
    if (req.method === 'GET' && file && jobs.has(file[1])) {
      const video = jobs.get(file[1])!.video;
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': video.length });
      return res.end(video);
    }
    json(404, { message: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { url, created, close, [Symbol.asyncDispose]: close };
}
