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
import { MediaError } from '../../core/errors.js';

export const SYNC_MODEL = 'lipsync-2';
export const SYNC_POLL_INTERVAL_MS = 2_000;
export const SYNC_TIMEOUT_MS = 15 * 60_000;
/** One call to the API (create, one poll) gives up after this long. */
export const SYNC_CALL_TIMEOUT_MS = 120_000;
/** The download of the output, body included, gives up after this long. */
export const SYNC_DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

/**
 * Pure: whether the service may fetch the provider's `outputUrl` (issue #34: it was fetched as
 * given, so a provider, or whoever answers in its name, could point the service at any address).
 * http(s) only; the API's own host, a host of `allowedHosts` (SYNC_OUTPUT_HOSTS: `cdn.example.com`
 * or `.example.com` for its subdomains), and without a list any public name; never a loopback,
 * private or link-local address unless it is the API's own host (a local fake).
 * @example outputUrlAllowed('https://cdn.sync.so/x.mp4', 'https://api.sync.so', []) // → true
 */
export function outputUrlAllowed(
  outputUrl: string,
  baseUrl: string,
  allowedHosts: readonly string[],
): boolean {
  let url: URL;
  try {
    url = new URL(outputUrl);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  const host = url.hostname.toLowerCase();
  if (host === new URL(baseUrl).hostname.toLowerCase()) return true;
  if (allowedHosts.length)
    return allowedHosts.some((h) => (h.startsWith('.') ? host.endsWith(h) : host === h.toLowerCase()));
  return !PRIVATE_HOST.test(host);
}
/** Loopback, private, link-local and unspecified addresses (IPv4 literals, IPv6 in brackets), and localhost. */
const PRIVATE_HOST =
  /^(localhost|.*\.localhost|127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.|0\.|\[(::1?|f[cd][0-9a-f]*:.*|fe80:.*)\]$)/;

export interface SyncApiOptions {
  baseUrl: string;
  apiKey?: string;
  /** SYNC_OUTPUT_HOSTS: hosts the output may be downloaded from besides the API's own. */
  outputHosts?: string[];
  pollIntervalMs?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The lip-sync provider failed (the render answers it as `lipsync_provider_error`). */
export class SyncApiError extends MediaError {
  constructor(
    message: string,
    readonly providerStatus?: number,
  ) {
    super('lipsync_provider_error', message, 500);
    this.name = 'SyncApiError';
  }
}

/**
 * Lip-syncs `videoPath` to `audioPath` remotely; resolves to the downloaded MP4 in `workDir`.
 * @example const out = await syncLipSync({ baseUrl }, 'v.mp4', 'a.wav', '/tmp/job');
 */
export async function syncLipSync(
  {
    baseUrl,
    apiKey,
    outputHosts = [],
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
  const created = await doFetch(`${base}/v2/generate`, {
    method: 'POST',
    headers,
    body: form,
    signal: AbortSignal.timeout(SYNC_CALL_TIMEOUT_MS),
  });
  if (!created.ok) throw await failure('create generation', created);
  const { id } = (await created.json()) as { id: string };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await doFetch(`${base}/v2/generate/${encodeURIComponent(id)}`, {
      headers,
      signal: AbortSignal.timeout(SYNC_CALL_TIMEOUT_MS),
    });
    if (!res.ok) throw await failure('poll generation', res);
    const gen = (await res.json()) as { status: string; outputUrl?: string | null; error?: string | null };
    if (gen.status === 'COMPLETED') {
      if (!gen.outputUrl) throw new SyncApiError(`sync generation ${id} completed without outputUrl`);
      if (!outputUrlAllowed(gen.outputUrl, base, outputHosts))
        throw new SyncApiError(
          `sync generation ${id}: its outputUrl's host is not one the service downloads from (SYNC_OUTPUT_HOSTS)`,
        );
      // No redirect is followed: it could lead past the host check.
      const signal = AbortSignal.timeout(SYNC_DOWNLOAD_TIMEOUT_MS);
      const out = await doFetch(gen.outputUrl, { redirect: 'error', signal });
      if (!out.ok || !out.body) throw await failure('download output', out);
      const path = join(workDir, 'lipsync-remote.mp4');
      await pipeline(
        Readable.fromWeb(out.body as unknown as NodeWebReadableStream<Uint8Array>),
        createWriteStream(path),
        { signal },
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
