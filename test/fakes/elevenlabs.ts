/**
 * @module test/fakes/elevenlabs
 * A local stand-in for the ElevenLabs text-to-speech API that speaks its wire format:
 * `POST /v1/text-to-speech/{voice_id}?output_format=…`, header `xi-api-key`, JSON
 * `{text, model_id}`; audio bytes on success (raw s16le for `pcm_*`, MP3 otherwise, ~60 ms
 * of tone per character); errors as `{"detail":{"status":"…","message":"…"}}` with 401, 404,
 * 422, 429 and 500. Special keys `rate-limited` and `server-error` trigger 429 and 500.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeElevenLabs extends AsyncDisposable {
  url: string;
  /** Requests received, newest last. */
  calls: Array<{ voiceId: string; outputFormat: string | null; apiKey: string | undefined; body: unknown }>;
  close(): Promise<void>;
}

export const FAKE_VOICES = ['21m00Tcm4TlvDq8ikWAM', 'test-voice'];
const SECONDS_PER_CHAR = 0.06;

export async function startFakeElevenLabs({
  validKeys = ['test-key'],
}: { validKeys?: string[] } = {}): Promise<FakeElevenLabs> {
  const calls: FakeElevenLabs['calls'] = [];
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, detailStatus: string, message: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: { status: detailStatus, message } }));
    };
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const m = /^\/v1\/text-to-speech\/([^/]+)$/.exec(url.pathname);
    if (req.method !== 'POST' || !m) return send(404, 'not_found', 'Not Found');
    const voiceId = decodeURIComponent(m[1]);
    const apiKey = req.headers['xi-api-key'] as string | undefined;
    let body: { text?: unknown; model_id?: unknown } = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      /* validated below */
    }
    const outputFormat = url.searchParams.get('output_format');
    calls.push({ voiceId, outputFormat, apiKey, body });
    if (apiKey === 'rate-limited')
      return send(429, 'too_many_concurrent_requests', 'Too many concurrent requests for this subscription.');
    if (apiKey === 'server-error') return send(500, 'internal_error', 'An internal error occurred.');
    if (!apiKey || !validKeys.includes(apiKey)) return send(401, 'invalid_api_key', 'Invalid API key');
    if (!FAKE_VOICES.includes(voiceId))
      return send(404, 'voice_not_found', `A voice with voice_id ${voiceId} does not exist.`);
    if (typeof body.text !== 'string' || body.text.trim() === '') {
      res.writeHead(422, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          detail: [{ loc: ['body', 'text'], msg: 'field required', type: 'value_error.missing' }],
        }),
      );
    }
    const seconds = Math.max(0.3, body.text.length * SECONDS_PER_CHAR);
    const pcm = /^pcm_(\d+)$/.exec(outputFormat ?? '');
    const audio = pcm ? tone(seconds, Number(pcm[1])) : await mp3(seconds);
    res.writeHead(200, { 'content-type': pcm ? 'audio/pcm' : 'audio/mpeg', 'content-length': audio.length });
    res.end(audio);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { url: `http://127.0.0.1:${port}`, calls, close, [Symbol.asyncDispose]: close };
}

/** A 220 Hz tone with a 4 Hz syllable-like envelope, s16le mono. */
function tone(seconds: number, rate: number): Buffer {
  const n = Math.round(seconds * rate);
  const buf = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) {
    const t = i / rate;
    const env = 0.5 + 0.5 * Math.sin(2 * Math.PI * 4 * t);
    buf.writeInt16LE(Math.round(8000 * env * Math.sin(2 * Math.PI * 220 * t)), i * 2);
  }
  return buf;
}

/** The same tone as MP3 at 44.1 kHz (like mp3_44100_128), encoded by ffmpeg. */
function mp3(seconds: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const p = spawn('ffmpeg', [
      '-v',
      'error',
      '-f',
      's16le',
      '-ar',
      '44100',
      '-ac',
      '1',
      '-i',
      'pipe:0',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '128k',
      '-f',
      'mp3',
      'pipe:1',
    ]);
    const out: Buffer[] = [];
    p.stdout.on('data', (c: Buffer) => out.push(c));
    p.on('error', reject);
    p.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`ffmpeg mp3 exited ${code}`)),
    );
    p.stdin.end(tone(seconds, 44_100));
  });
}
