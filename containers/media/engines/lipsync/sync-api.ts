/**
 * @module containers/media/engines/lipsync/sync-api
 * Remote lip-sync adapter for a sync.so-compatible API (model `lipsync-2`): create a generation
 * (`POST {SYNC_API_URL}/v2/generate`, header `x-api-key`, multipart `video` + `audio` files with
 * `model` and `options` fields), poll `GET /v2/generate/{id}` until COMPLETED / FAILED /
 * REJECTED, then download `outputUrl` to disk (streamed). Configured only when SYNC_API_URL is set.
 * Caveat: the hosted API may require URL inputs instead of uploads; the fake follows uploads.
 */
import { createWriteStream } from 'node:fs';
import { openAsBlob } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';

export const SYNC_MODEL = 'lipsync-2';
export const SYNC_POLL_INTERVAL_MS = 2_000;
export const SYNC_TIMEOUT_MS = 15 * 60_000;

export interface SyncApiOptions {
  baseUrl: string;
  apiKey?: string;
  pollIntervalMs?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export class SyncApiError extends Error {
  constructor(
    message: string,
    readonly providerStatus?: number,
  ) {
    super(message);
    this.name = 'SyncApiError';
  }
}

/** Returns the adapter when SYNC_API_URL is set, else null. */
export function syncApiFromEnv(env: NodeJS.ProcessEnv = process.env): SyncApiOptions | null {
  return env.SYNC_API_URL ? { baseUrl: env.SYNC_API_URL, apiKey: env.SYNC_API_KEY } : null;
}

/**
 * Lip-syncs `videoPath` to `audioPath` remotely; resolves to the downloaded MP4 in `workDir`.
 * @example const out = await syncLipSync({ baseUrl }, 'v.mp4', 'a.wav', '/tmp/job');
 */
export async function syncLipSync(
  {
    baseUrl,
    apiKey,
    pollIntervalMs = SYNC_POLL_INTERVAL_MS,
    timeoutMs = SYNC_TIMEOUT_MS,
    fetch: doFetch = fetch,
  }: SyncApiOptions,
  videoPath: string,
  audioPath: string,
  workDir: string,
): Promise<string> {
  const base = baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = apiKey ? { 'x-api-key': apiKey } : {};
  const form = new FormData();
  form.set('model', SYNC_MODEL);
  form.set('options', JSON.stringify({ sync_mode: 'loop' })); // video loops if the audio is longer
  form.set('video', await openAsBlob(videoPath), 'video.mp4');
  form.set('audio', await openAsBlob(audioPath), 'audio');
  const created = await doFetch(`${base}/v2/generate`, { method: 'POST', headers, body: form });
  if (!created.ok) throw await failure('create generation', created);
  const { id } = (await created.json()) as { id: string };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await doFetch(`${base}/v2/generate/${encodeURIComponent(id)}`, { headers });
    if (!res.ok) throw await failure('poll generation', res);
    const gen = (await res.json()) as { status: string; outputUrl?: string | null; error?: string | null };
    if (gen.status === 'COMPLETED') {
      if (!gen.outputUrl) throw new SyncApiError(`sync generation ${id} completed without outputUrl`);
      const out = await doFetch(gen.outputUrl);
      if (!out.ok || !out.body) throw await failure('download output', out);
      const path = join(workDir, 'lipsync-remote.mp4');
      await pipeline(
        Readable.fromWeb(out.body as unknown as NodeWebReadableStream<Uint8Array>),
        createWriteStream(path),
      );
      return path;
    }
    if (gen.status === 'FAILED' || gen.status === 'REJECTED') {
      throw new SyncApiError(`sync generation ${id} ${gen.status}: ${gen.error ?? 'no reason given'}`);
    }
    if (Date.now() > deadline)
      throw new SyncApiError(`sync generation ${id} still ${gen.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, pollIntervalMs));
  }
}

async function failure(what: string, res: Response): Promise<SyncApiError> {
  const text = await res.text().catch(() => '');
  let message = text.slice(0, 300);
  try {
    const j = JSON.parse(text);
    message = j.message ?? j.error ?? j.detail?.message ?? message;
  } catch {
    /* keep text */
  }
  return new SyncApiError(`sync API ${what} responded ${res.status}: ${message}`, res.status);
}
