/**
 * @module client/client
 * `VideoApiClient`: a typed, fetch-based client of the service for Node 20+ and browsers.
 */
import type { AnalysisResult } from '../contract/result.js';
import type { ProcessingReport, ReportedStatus } from '../contract/jobs.js';
import type { AnalysisOptions, AvatarChoice, ProcessFormOptions } from '../contract/options.js';
import type { AvatarList, JobList } from '../contract/lists.js';
import type { WebhookDeliveries, WebhookSecret } from '../contract/webhooks.js';
import { errorFromResponse, VideoApiError, VideoJobError, VideoWaitTimeoutError } from './errors.js';
import {
  buildMultipart,
  canStreamUploads,
  countingStream,
  toNamedFile,
  type FileInput,
  type NamedFile,
  type UploadProgress,
} from './form.js';
import { nextPollDelayMs, sleep, type BackoffOptions } from './poll.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';
/** Polling gives up after this long unless told otherwise (30 min). */
export const DEFAULT_WAIT_TIMEOUT_MS = 30 * 60 * 1000;
/** Transient status-poll failures tolerated in a row before giving up. */
export const MAX_POLL_FAILURES = 5;
/** How long each status request of `waitForCompletion` may be held by the server (`wait`, a long-poll). */
export const LONG_POLL_SEC = 25;

/** A status the status endpoint reports (`not_found` for an id this key does not own). */
export type { ReportedStatus };
/** @deprecated The old name of `ReportedStatus`. */
export type JobState = ReportedStatus;

/** The status endpoint's answer. */
export interface JobStatus {
  status: ReportedStatus;
  progress: number;
  download_url: string | null;
  result: AnalysisResult | null;
  error_message: string | null;
  /** Extension: what a completed processing job did (options applied, lip-sync mode, notes). */
  processing_report?: ProcessingReport;
}

export interface JobCreated {
  video_id: string;
  status: 'pending';
}

export interface AvatarRegistered {
  video_id: string;
  registration_status: boolean;
}

export interface VideoApiClientOptions {
  /** Service origin; default `http://127.0.0.1:8787`. */
  baseUrl?: string;
  apiKey: string;
  /** A fetch implementation (tests, proxies); default the global `fetch`. */
  fetch?: typeof fetch;
}

export interface UploadOptions {
  /** Called as the body streams (Node) or at start and end (browsers). */
  onUploadProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** Name sent for a Blob/bytes file; default `video.mp4`. */
  filename?: string;
  /** Sent as `Idempotency-Key`: retrying with the same key never creates a second job. */
  idempotencyKey?: string;
  /** Extension: where a signed webhook is POSTed when the job ends (or the avatar is registered). */
  webhookUrl?: string;
}

export type { AvatarList, JobList, WebhookDeliveries, WebhookSecret };

export interface ListJobsOptions {
  /** Only jobs with this status. */
  status?: 'pending' | 'processing' | 'completed' | 'failed';
  /** Only jobs of this kind. */
  kind?: 'analysis' | 'processing';
  /** Jobs per page, 1–100 (default 20). */
  limit?: number;
  /** Start after this page (a `next_cursor`). */
  cursor?: string;
  signal?: AbortSignal;
}

/** The text fields of process-video, as the contract names them. */
type ProcessField = keyof typeof ProcessFormOptions.shape | keyof typeof AvatarChoice.shape;

export interface AnalyzeOptions extends UploadOptions {
  /** Add the video section (gestures, posture, gaze); default false. */
  visualAnalytics?: boolean;
  /** The spoken language: a Whisper code (ISO 639-1, e.g. `de`) or a BCP 47 tag of it (`de-DE`); detected when absent. */
  language?: string;
}

export interface ProcessOptions extends UploadOptions {
  file?: FileInput;
  /** An `avt_` id from `registerAvatar` (wins over `file`). */
  avatarId?: string;
  description?: string;
  /** Default true on the server. */
  blurBackground?: boolean;
  voiceGenerator?: 0 | 1 | 2 | '0' | '1' | '2';
  voiceId?: string;
  credentialVoiceGenerator?: string;
  lipSyncCorrection?: boolean;
  lipSyncCorrectionModel?: string;
  eyeContactCorrection?: boolean;
  /** Speech for the output; requires voiceGenerator 2. */
  audio?: FileInput;
}

export interface WaitOptions extends BackoffOptions {
  /** Called after every poll. */
  onProgress?: (status: JobStatus) => void;
  /** Default 30 min. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface DownloadOptions {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/**
 * The service's client.
 * @example
 * const client = new VideoApiClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: process.env.VIDEO_API_KEY! });
 * const { video_id } = await client.analyzeVideo('talk.mp4', { visualAnalytics: true });
 * const done = await client.waitForCompletion(video_id, { onProgress: (s) => console.log(s.progress) });
 * console.log(done.result?.summary.words_per_minute);
 */
export class VideoApiClient {
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #fetch: typeof fetch;

  constructor({ baseUrl = DEFAULT_BASE_URL, apiKey, fetch: fetchImpl }: VideoApiClientOptions) {
    if (!apiKey) throw new TypeError('apiKey is required');
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.#apiKey = apiKey;
    this.#fetch = fetchImpl ?? globalThis.fetch.bind(globalThis);
  }

  /** Starts an analysis job. */
  async analyzeVideo(file: FileInput, options: AnalyzeOptions = {}): Promise<JobCreated> {
    const { visualAnalytics = false, language, filename = 'video.mp4', ...upload } = options;
    const fields: Partial<Record<keyof AnalysisOptions | 'webhook_url', string>> = {
      ...(visualAnalytics ? { visual_analytics: 'true' } : {}),
      ...(language ? { language } : {}),
    };
    if (upload.webhookUrl) fields.webhook_url = upload.webhookUrl;
    return this.#upload('/api/analyze-video', fields, { file: await toNamedFile(file, filename) }, upload);
  }

  /** Starts a processing job from a file or a registered avatar. */
  async processVideo(options: ProcessOptions): Promise<JobCreated> {
    const {
      file,
      avatarId,
      audio,
      filename = 'video.mp4',
      onUploadProgress,
      signal,
      idempotencyKey,
    } = options;
    if (file === undefined && !avatarId) throw new TypeError('processVideo needs a file or an avatarId');
    const fields: Record<string, string> = {};
    // Field names are the contract's: a renamed option fails to compile here.
    const text = (name: ProcessField, value: string | number | undefined) => {
      if (value !== undefined) fields[name] = String(value);
    };
    const bool = (name: ProcessField, value: boolean | undefined) => {
      if (value !== undefined) fields[name] = value ? 'true' : 'false';
    };
    text('video_id', avatarId);
    text('description', options.description);
    bool('blur_background', options.blurBackground);
    text('voice_generator', options.voiceGenerator);
    text('voice_id', options.voiceId);
    text('credential_voice_generator', options.credentialVoiceGenerator);
    bool('lip_sync_correction', options.lipSyncCorrection);
    text('lip_sync_correction_model', options.lipSyncCorrectionModel);
    bool('eye_contact_correction', options.eyeContactCorrection);
    if (options.webhookUrl) fields.webhook_url = options.webhookUrl;
    const files: Record<string, NamedFile> = {};
    // With an avatar the server ignores `file`; not sending it saves the upload.
    if (file !== undefined && !avatarId) files.file = await toNamedFile(file, filename);
    if (audio !== undefined) files.audio = await toNamedFile(audio, 'audio.wav');
    return this.#upload('/api/process-video', fields, files, { onUploadProgress, signal, idempotencyKey });
  }

  /** Stores a video for reuse; returns its `avt_` id. */
  async registerAvatar(file: FileInput, options: UploadOptions = {}): Promise<AvatarRegistered> {
    const { filename = 'video.mp4', ...upload } = options;
    const fields: Record<string, string> = upload.webhookUrl ? { webhook_url: upload.webhookUrl } : {};
    return this.#upload('/api/register-avatar', fields, { file: await toNamedFile(file, filename) }, upload);
  }

  /**
   * The key's jobs, newest first, one page per iteration (extension), following `next_cursor`.
   * @example
   * for await (const page of client.listJobs({ status: 'completed' })) for (const job of page.data) console.log(job.video_id);
   */
  async *listJobs(options: ListJobsOptions = {}): AsyncGenerator<JobList> {
    const { signal, ...query } = options;
    let cursor = query.cursor;
    do {
      const page: JobList = await this.#json(`/api/jobs${queryString({ ...query, cursor })}`, { signal });
      yield page;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /** The key's avatars, newest first, one page per iteration (extension). */
  async *listAvatars(
    options: Pick<ListJobsOptions, 'limit' | 'cursor' | 'signal'> = {},
  ): AsyncGenerator<AvatarList> {
    const { signal, ...query } = options;
    let cursor = query.cursor;
    do {
      const page: AvatarList = await this.#json(`/api/avatars${queryString({ ...query, cursor })}`, {
        signal,
      });
      yield page;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /** The caption file of a completed job's speech (a transcript, or a processed video's new speech), as text (extension). */
  async captions(videoId: string, format: 'vtt' | 'srt' = 'vtt', signal?: AbortSignal): Promise<string> {
    const path = `/api/jobs/${encodeURIComponent(videoId)}/captions.${format === 'srt' ? 'srt' : 'vtt'}`;
    let res: Response;
    try {
      res = await this.#fetch(`${this.baseUrl}${path}`, { headers: { 'x-api-key': this.#apiKey }, signal });
    } catch (err) {
      throw networkError(err);
    }
    if (!res.ok) throw await errorFromResponse(res);
    return res.text();
  }

  /** The key's webhook signing secret (`whsec_…`), made on first use (extension). */
  async webhookSecret(): Promise<WebhookSecret> {
    return this.#json('/api/webhooks/secret', {});
  }

  /** Replaces the signing secret; the previous one also signs for 24 h (extension). */
  async rotateWebhookSecret(): Promise<WebhookSecret> {
    return this.#json('/api/webhooks/secret/rotate', { method: 'POST' });
  }

  /** The webhook deliveries of a job or avatar and their attempts (extension). */
  async webhookDeliveries(videoId: string): Promise<WebhookDeliveries> {
    return this.#json(`/api/jobs/${encodeURIComponent(videoId)}/webhooks`, {});
  }

  /**
   * One status request. Unknown ids come back as `{ status: 'not_found' }`, not as an error.
   * `waitSec` (0–60) makes it a long-poll: the server answers as soon as the job's status or
   * progress moves, or after that many seconds.
   */
  async getStatus(
    videoId: string,
    signal?: AbortSignal,
    { waitSec }: { waitSec?: number } = {},
  ): Promise<JobStatus> {
    const wait = waitSec ? `?wait=${Math.max(0, Math.min(60, Math.floor(waitSec)))}` : '';
    return this.#json<JobStatus>(`/api/status/${encodeURIComponent(videoId)}${wait}`, { signal });
  }

  /** Deletes a job and its files now (extension; 404 for an unknown id). */
  async deleteJob(videoId: string): Promise<void> {
    await this.#json(`/api/jobs/${encodeURIComponent(videoId)}`, { method: 'DELETE' });
  }

  /** Deletes a registered avatar (extension; 404 for an unknown id). */
  async deleteAvatar(avatarId: string): Promise<void> {
    await this.#json(`/api/avatars/${encodeURIComponent(avatarId)}`, { method: 'DELETE' });
  }

  /**
   * Waits until the job completes with long-polls (each request held by the server until the
   * job's status moves, or its progress after a second, up to LONG_POLL_SEC), so completion is
   * seen at once. It backs off between answers that show no change (a server without long-polls
   * answers at once).
   * Throws `VideoJobError` (failed / not_found) or `VideoWaitTimeoutError`.
   */
  async waitForCompletion(videoId: string, options: WaitOptions = {}): Promise<JobStatus> {
    const { onProgress, timeoutMs = DEFAULT_WAIT_TIMEOUT_MS, signal, ...backoff } = options;
    const deadline = Date.now() + timeoutMs;
    let unchanged = 0;
    let failures = 0;
    let last: JobStatus | null = null;
    for (;;) {
      let status: JobStatus | null = null;
      let statusMoved = false;
      let askedWaitMs = 0;
      const asked = Date.now();
      try {
        const waitSec = Math.min(LONG_POLL_SEC, Math.floor((deadline - asked) / 1000));
        status = await this.getStatus(videoId, signal, { waitSec });
        failures = 0;
      } catch (err) {
        if (!(err instanceof VideoApiError) || !err.retryable || ++failures > MAX_POLL_FAILURES) throw err;
        askedWaitMs = (err.retryAfterSec ?? 0) * 1000;
      }
      if (status) {
        onProgress?.(status);
        if (status.status === 'completed') return status;
        if (status.status === 'failed')
          throw new VideoJobError(videoId, 'failed', status.error_message ?? 'the job failed');
        if (status.status === 'not_found')
          throw new VideoJobError(videoId, 'not_found', `no job ${videoId} for this API key`);
        statusMoved = last?.status !== status.status;
        unchanged = !statusMoved && last!.progress === status.progress ? unchanged + 1 : 0;
        last = status;
      }
      // A new status is asked about again at once; otherwise the backoff, less the time the server
      // held the request (a long-poll answers a progress change after ≥ 1 s, so none is left).
      const held = Date.now() - asked;
      const delay = statusMoved
        ? 0
        : Math.max(askedWaitMs, nextPollDelayMs(status ? unchanged : failures, backoff) - held);
      if (Date.now() + delay > deadline)
        throw new VideoWaitTimeoutError(videoId, last?.status ?? 'unknown', last?.progress ?? 0);
      await sleep(delay, signal);
    }
  }

  /**
   * Downloads a processed video, by job id (its current `download_url`) or by the URL itself.
   * With `destination` (Node) the file is streamed to disk and the path returned; otherwise a Blob.
   * The API key is never sent to the storage host: the link is its own credential.
   */
  async download(
    idOrUrl: string,
    destination?: string,
    options: DownloadOptions = {},
  ): Promise<{ path: string | null; bytes: number; blob: Blob | null }> {
    let url = idOrUrl;
    if (!/^https?:\/\//.test(idOrUrl)) {
      const status = await this.getStatus(idOrUrl, options.signal);
      if (status.status !== 'completed' || !status.download_url) {
        throw new VideoJobError(
          idOrUrl,
          status.status === 'failed' ? 'failed' : 'not_found',
          status.status === 'completed'
            ? `job ${idOrUrl} has no download (analysis jobs have a result instead)`
            : `job ${idOrUrl} is ${status.status}, not completed`,
        );
      }
      url = status.download_url;
    }
    let res: Response;
    try {
      res = await this.#fetch(url, { signal: options.signal });
    } catch (err) {
      throw networkError(err);
    }
    if (!res.ok || !res.body) throw await errorFromResponse(res);
    const total = Number(res.headers.get('content-length') ?? 0);
    let loaded = 0;
    const counted = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          loaded += chunk.byteLength;
          options.onProgress?.({ loaded, total });
          controller.enqueue(chunk);
        },
      }),
    );
    if (destination) {
      const [{ createWriteStream }, { Readable }, { pipeline }] = await Promise.all([
        import('node:fs'),
        import('node:stream'),
        import('node:stream/promises'),
      ]);
      await pipeline(Readable.fromWeb(counted as any), createWriteStream(destination));
      return { path: destination, bytes: loaded, blob: null };
    }
    const blob = await new Response(counted).blob();
    return { path: null, bytes: blob.size, blob };
  }

  async #upload<T>(
    path: string,
    fields: Record<string, string>,
    files: Record<string, NamedFile>,
    options: UploadOptions,
  ): Promise<T> {
    const body = buildMultipart(fields, files);
    const headers: Record<string, string> = { 'content-type': body.contentType };
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers, signal: options.signal };
    if (options.onUploadProgress && canStreamUploads()) {
      init.body = countingStream(body, options.onUploadProgress);
      init.duplex = 'half';
      headers['content-length'] = String(body.length);
    } else {
      options.onUploadProgress?.({ loaded: 0, total: body.length });
      init.body = new Blob(body.parts);
    }
    const result = await this.#json<T>(path, init);
    options.onUploadProgress?.({ loaded: body.length, total: body.length });
    return result;
  }

  async #json<T>(path: string, init: RequestInit): Promise<T> {
    const headers = new Headers(init.headers);
    headers.set('x-api-key', this.#apiKey);
    headers.set('accept', 'application/json');
    let res: Response;
    try {
      res = await this.#fetch(`${this.baseUrl}${path}`, { ...init, headers });
    } catch (err) {
      throw networkError(err);
    }
    if (!res.ok) throw await errorFromResponse(res);
    if (res.status === 204) return undefined as T;
    return (await res.json()) as T;
  }
}

/** `?a=1&b=2` of the defined values; empty when none. */
function queryString(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const text = q.toString();
  return text ? `?${text}` : '';
}

function networkError(err: unknown): unknown {
  if ((err as Error)?.name === 'AbortError' || (err as Error)?.name === 'TimeoutError') return err;
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  return new VideoApiError(
    {
      code: 'network_error',
      status: 0,
      message: `could not reach the service: ${cause?.code ?? cause?.message ?? (err as Error)?.message ?? err}`,
      requestId: null,
      field: null,
    },
    { cause: err },
  );
}
