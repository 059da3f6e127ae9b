/**
 * @module media/client
 * The typed client of the media container's internal HTTP API. Bodies stream both ways;
 * nothing here holds a whole media file. A job's source crosses to the container once: the first
 * request that needs it sends it (`PUT /jobs/{id}/source`), the others name it.
 */
import {
  DEFAULT_MAX_MEDIA_DURATION_SEC,
  type AsrOutput,
  type CompactFrame,
  type ProbeResult,
  type TimeSegment,
} from '../contract/media.js';
import {
  type AudioChoice,
  MEDIA_HEADERS as H,
  MEDIA_ROUTES,
  mediaPath,
  PCM_CONTENT_TYPE,
  SOURCE_MISSING,
} from '../contract/media-protocol.js';
import { MediaErrorBody, RenderSpeech, type RenderRequest } from '../contract/render.js';
import type { TtsRequest } from '../contract/tts.js';
import { ADMISSION_WAIT_MS, fetchTimeoutMs, workBudgetMs } from './budget.js';
import { JobAbortedError, MediaUnreachableError, TransientError, UnrecoverableError } from './errors.js';
import type { MediaTransport } from './transport.js';
import {
  closingDelimiter,
  multipartContentType,
  newBoundary,
  PART_END,
  partHead,
} from '../contract/multipart.js';

export interface SourceHints {
  filename: string | null;
  content_type: string | null;
}

/** DELETE must answer quickly even when the container is busy or down. */
const ABORT_CALL_TIMEOUT_MS = 3_000;
/** A render's progress is asked every few seconds; a late answer is worth nothing. */
const PROGRESS_CALL_TIMEOUT_MS = 1_000;
/** A render's words are in the container's memory: a small, quick answer. */
const SPEECH_CALL_TIMEOUT_MS = 15_000;

const hintHeaders = (hints: SourceHints): Record<string, string> => ({
  ...(hints.filename ? { [H.sourceFilename]: encodeURIComponent(hints.filename) } : {}),
  ...(hints.content_type ? { [H.sourceContentType]: hints.content_type } : {}),
});

/** The job's uploaded file: its hints and size, and a new stream of it each time it is sent. */
export interface JobSource {
  hints: SourceHints;
  size: number;
  open(): Promise<ReadableStream<Uint8Array>>;
}

/** What the container is told about the job each request works for (headers), and when the Worker gives up. */
export interface JobScope {
  jobId: string;
  /** The job's tenant: the container shares its CPU fairly between tenants. */
  tenant?: string;
  /** Aborted when the job is deleted or this consumer lost it: in-flight requests end at once. */
  signal?: AbortSignal;
  /** Longest media accepted (seconds). */
  maxDurationSec?: number;
  /** The job's uploaded file: sent to the container once, then named by the requests that read it. */
  source?: JobSource;
  /** Largest upload accepted (bytes, `MAX_UPLOAD_BYTES`): the container refuses a larger stored source. */
  maxSourceBytes?: number;
}

/**
 * A deadline `ms` from now, that `tighten(ms)` can bring forward to `ms` from its start (never
 * push back: the earliest wins).
 */
export function tightenableDeadline(ms: number): { signal: AbortSignal; tighten(ms: number): void } {
  const startedAt = Date.now();
  const expired = new AbortController();
  const expireAfter = (after: number) =>
    AbortSignal.timeout(Math.max(0, after)).addEventListener('abort', () => expired.abort(), { once: true });
  expireAfter(ms);
  return { signal: expired.signal, tighten: (total) => expireAfter(total - (Date.now() - startedAt)) };
}

/** A call sent while the media's probe still runs beside it. */
export interface BesideProbe {
  /** The media's duration (seconds), once probed. */
  duration?: Promise<number>;
  /** Aborted when the probe failed: the call ends. */
  stop?: AbortSignal;
}

export class MediaClient {
  /** Real duration of the job's media once probed (budgets follow it), and the upload's size before. */
  private durationSec: number | null = null;
  private sizeBytes = 0;
  /** The upload of the job's source to the container by this run, once started. */
  private sent: Promise<void> | null = null;

  constructor(
    private readonly transport: MediaTransport,
    private readonly scope: JobScope | null = null,
  ) {}

  /** The budgets of later requests follow the media's real duration (from the container's probe). */
  setMedia({ durationSec, sizeBytes }: { durationSec?: number | null; sizeBytes?: number }): void {
    if (durationSec !== undefined) this.durationSec = durationSec;
    if (sizeBytes !== undefined) this.sizeBytes = sizeBytes;
  }

  /**
   * Calls the container; maps its errors to Unrecoverable (4xx) or Transient (5xx, network).
   * `duration`: the media's duration is being probed beside this call (a render sent before its
   * probe answered). Until it answers the budget is the ceiling, the longest media accepted (the
   * container narrows it from its own probe); then the Worker's deadline follows the answer.
   * `stop` ends the call early (the probe beside it failed). With `absentOk`, a 404 is an answer
   * (the caller reads it), not a failure.
   */
  private async call(
    path: string,
    init: RequestInit,
    what: string,
    { duration, stop, absentOk = false }: BesideProbe & { absentOk?: boolean } = {},
  ): Promise<Response> {
    let res: Response;
    const longestSec = this.scope?.maxDurationSec ?? DEFAULT_MAX_MEDIA_DURATION_SEC;
    const durationSec = this.durationSec ?? (duration ? longestSec : null);
    let budgetMs = workBudgetMs({ durationSec, sizeBytes: this.sizeBytes });
    // The container may hold the request for its key's turn before the budget starts.
    const deadline = tightenableDeadline(fetchTimeoutMs(budgetMs));
    if (duration && this.durationSec === null)
      duration.then(
        (sec) => {
          budgetMs = workBudgetMs({ durationSec: sec });
          deadline.tighten(fetchTimeoutMs(budgetMs));
        },
        () => {}, // the probe's own failure is the caller's to report
      );
    const signal = AbortSignal.any([
      deadline.signal,
      ...[this.scope?.signal, stop].filter((s) => s !== undefined),
    ]);
    const headers = new Headers(init.headers);
    if (this.scope) {
      headers.set(H.jobId, this.scope.jobId);
      if (this.scope.tenant) headers.set(H.tenantId, this.scope.tenant);
      if (this.scope.maxDurationSec) headers.set(H.maxMediaDurationSec, String(this.scope.maxDurationSec));
    }
    headers.set(H.workBudgetMs, String(budgetMs));
    headers.set(H.admissionWaitMs, String(ADMISSION_WAIT_MS));
    if (this.durationSec !== null) headers.set(H.mediaDurationSec, String(this.durationSec));
    try {
      res = await this.transport.fetch(path, { ...init, headers, signal });
    } catch (err) {
      if (this.scope?.signal?.aborted) throw new JobAbortedError(what, { cause: err });
      if (deadline.signal.aborted)
        throw new UnrecoverableError(
          `${what} took longer than its budget of ${Math.round(budgetMs / 1000)} s`,
          { cause: err },
        );
      throw new MediaUnreachableError(
        `the media service could not be reached for ${what}: ${(err as Error).message}`,
        { cause: err },
      );
    }
    if (res.ok || (absentOk && res.status === 404)) return res;
    throw failure(res.status, await res.text().catch(() => ''), what);
  }

  /**
   * Sends the job's source to the container (`PUT /jobs/{id}/source`) unless this run already
   * did: callers at the same time share one upload.
   */
  private sendSource(): Promise<void> {
    if (this.sent) return this.sent;
    const { jobId, source, maxSourceBytes } = this.sourceScope();
    const sent = (async () => {
      const res = await this.call(
        mediaPath.jobSource(jobId),
        {
          method: 'PUT',
          body: await source.open(),
          headers: {
            ...hintHeaders(source.hints),
            ...(maxSourceBytes ? { [H.maxSourceBytes]: String(maxSourceBytes) } : {}),
          },
        },
        'sending the media',
      );
      await res.body?.cancel();
    })();
    this.sent = sent;
    sent.catch(() => {
      if (this.sent === sent) this.sent = null;
    });
    return sent;
  }

  private sourceScope(): JobScope & { source: JobSource } {
    const scope = this.scope;
    if (!scope?.source) throw new Error('this media client has no job source to send');
    return { ...scope, source: scope.source };
  }

  /**
   * A request on the job's source: the first one of the run sends it (`sendSource`), each names
   * it (`x-stored-source`) instead of carrying it. When the container no longer has it (it
   * restarted, swept it, or is another instance), it is sent again and the request repeated, once.
   */
  private async onSource(
    path: string,
    what: string,
    extraHeaders: Record<string, string> = {},
  ): Promise<Response> {
    const { source } = this.sourceScope();
    const headers = { ...hintHeaders(source.hints), ...extraHeaders, [H.storedSource]: '1' };
    for (let attempt = 1; ; attempt++) {
      const upload = this.sendSource();
      await upload;
      const res = await this.call(path, { method: 'POST', headers }, what, { absentOk: true });
      if (res.status !== 404) return res;
      const text = await res.text().catch(() => '');
      if (attempt > 1 || errorCode(text) !== SOURCE_MISSING) throw failure(res.status, text, what);
      // Another request may have sent it again already: only a lost upload is forgotten.
      if (this.sent === upload) this.sent = null;
    }
  }

  async probe(): Promise<ProbeResult> {
    const res = await this.onSource(MEDIA_ROUTES.probe, 'reading the media');
    const probe = await res.json<ProbeResult>();
    this.setMedia({ durationSec: probe.duration_sec });
    return probe;
  }

  /**
   * The probe this job's render made of the source it was sent (the source crosses once), or null
   * when no render of the job started there within the container's wait.
   */
  async renderProbe(): Promise<ProbeResult | null> {
    const res = await this.call(MEDIA_ROUTES.renderProbe, { method: 'GET' }, 'reading the media', {
      absentOk: true,
    });
    if (res.status === 404) return null;
    const probe = await res.json<ProbeResult>();
    this.setMedia({ durationSec: probe.duration_sec });
    return probe;
  }

  /**
   * How much of `jobId`'s render output the container has encoded (0..1), or null when it cannot
   * say (no render of the job there, no answer within a second): progress is
   * a courtesy, never a reason to fail or wait.
   */
  async renderProgress(jobId: string): Promise<number | null> {
    try {
      const res = await this.transport.fetch(mediaPath.renderProgress(jobId), {
        method: 'GET',
        signal: AbortSignal.timeout(PROGRESS_CALL_TIMEOUT_MS),
      });
      if (!res.ok) return null;
      const { fraction } = (await res.json()) as { fraction?: unknown };
      return typeof fraction === 'number' && fraction >= 0 && fraction <= 1 ? fraction : null;
    } catch {
      return null;
    }
  }

  /**
   * The new speech's timed words of `jobId`'s render, on the output's timeline (asked once the
   * render answered with a report that counts them). A missing or unreadable answer is transient:
   * the render step runs again rather than the job completing without the captions it has.
   */
  async renderSpeech(jobId: string): Promise<RenderSpeech> {
    const what = 'reading the new speech of the render';
    let res: Response;
    try {
      res = await this.transport.fetch(mediaPath.renderSpeech(jobId), {
        method: 'GET',
        signal: AbortSignal.any([
          AbortSignal.timeout(SPEECH_CALL_TIMEOUT_MS),
          ...(this.scope?.signal ? [this.scope.signal] : []),
        ]),
      });
    } catch (err) {
      if (this.scope?.signal?.aborted) throw new JobAbortedError(what, { cause: err });
      throw new MediaUnreachableError(`${what}: ${(err as Error).message}`, { cause: err });
    }
    if (!res.ok) await res.body?.cancel();
    const parsed = RenderSpeech.safeParse(res.ok ? await res.json().catch(() => null) : null);
    if (!parsed.success)
      throw new TransientError(`${what} failed: ${res.ok ? 'not the words' : `HTTP ${res.status}`}`);
    return parsed.data;
  }

  /** Stops every running piece of work of `jobId` in the container (DELETE of the job). */
  async abortJob(jobId: string): Promise<number> {
    const res = await this.transport.fetch(mediaPath.job(jobId), {
      method: 'DELETE',
      signal: AbortSignal.timeout(ABORT_CALL_TIMEOUT_MS),
    });
    return res.ok ? ((await res.json()) as { aborted: number }).aborted : 0;
  }

  /**
   * An audio stream of the input (the first by default) as PCM in the protocol's `PCM_FORMAT`
   * (16 kHz mono s16le), its channels mixed as `mix` says (`MEDIA_HEADERS.audioMix`).
   */
  async extractAudio(
    { stream, mix }: AudioChoice = { stream: 0, mix: 'mid' },
  ): Promise<ReadableStream<Uint8Array>> {
    const res = await this.onSource(MEDIA_ROUTES.audio, 'extracting the audio', {
      [H.audioStream]: String(stream),
      [H.audioMix]: mix,
    });
    return res.body!;
  }

  /** Words of the speech in its language: `language` when the client set it, else detected. */
  async transcribe(
    pcm: ReadableStream | Uint8Array,
    speechSegments: TimeSegment[],
    language?: string,
  ): Promise<AsrOutput> {
    const res = await this.call(
      MEDIA_ROUTES.asr,
      {
        method: 'POST',
        body: pcm,
        headers: {
          'content-type': PCM_CONTENT_TYPE,
          [H.speechSegments]: JSON.stringify(speechSegments),
          ...(language ? { [H.speechLanguage]: language } : {}),
        },
      },
      'speech recognition',
    );
    return res.json<AsrOutput>();
  }

  /** Streams one compact record per sampled frame (the container's `/vision` compacts them). */
  async *observeFrames(fps?: number): AsyncGenerator<CompactFrame> {
    const res = await this.onSource(mediaPath.vision(fps), 'visual analysis');
    for await (const line of ndjsonLines(res.body!)) {
      const value = JSON.parse(line) as CompactFrame | { done: true } | { error: { message: string } };
      if ('error' in value) throw new UnrecoverableError(`visual analysis failed: ${value.error.message}`);
      if ('done' in value) return;
      yield value;
    }
    throw new TransientError('visual analysis ended early');
  }

  async synthesize(request: TtsRequest): Promise<Response> {
    return this.call(
      MEDIA_ROUTES.tts,
      { method: 'POST', body: JSON.stringify(request), headers: { 'content-type': 'application/json' } },
      'speech synthesis',
    );
  }

  /**
   * The rendered MP4 as a stream (Content-Length set by the container). `beside`: the source's
   * probe runs beside the render (see `call`). A file's `size`, when known, lets the request carry
   * a Content-Length (`multipartStream`). When this run sent the job's source already (a probe
   * before speech synthesis), the render names it instead of carrying it; if the container no
   * longer has it, the render carries it after all.
   */
  async render(
    files: RenderFiles,
    options: RenderRequest,
    hints: SourceHints,
    beside?: BesideProbe,
  ): Promise<Response> {
    const what = 'rendering the video';
    const send = async (source: SizedStream | null) => {
      const form = renderForm(source, await files.speech(), options, hints);
      const headers = source ? {} : { ...hintHeaders(hints), [H.storedSource]: '1' };
      return this.call(
        MEDIA_ROUTES.render,
        { method: 'POST', body: form.body, headers: { ...headers, 'content-type': form.contentType } },
        what,
        { ...beside, absentOk: !source },
      );
    };
    const sent = this.sent
      ? await this.sent.then(
          () => true,
          () => false,
        )
      : false;
    if (sent) {
      const res = await send(null);
      if (res.status !== 404) return res;
      const text = await res.text().catch(() => '');
      if (errorCode(text) !== SOURCE_MISSING) throw failure(res.status, text, what);
    }
    return send(await files.source());
  }
}

/** A render's files, opened when sent (a render that found the stored source gone opens them again). */
export interface RenderFiles {
  source(): Promise<SizedStream>;
  speech(): Promise<SizedStream | null>;
}

/** The render's multipart body: its options, the source unless the container has it, the speech. */
function renderForm(
  source: SizedStream | null,
  speech: SizedStream | null,
  options: RenderRequest,
  hints: SourceHints,
): ReturnType<typeof multipartStream> {
  const file = (name: string, stream: SizedStream | null, filename: string, contentType: string) =>
    stream ? [{ name, filename, contentType, stream: stream.body, size: stream.size }] : [];
  return multipartStream([
    { name: 'options', value: JSON.stringify(options) },
    ...file('source', source, hints.filename ?? 'source', hints.content_type ?? 'application/octet-stream'),
    ...file('speech', speech, 'speech', 'application/octet-stream'),
  ]);
}

/** The failure a container's error answer means: 4xx the media's (unrecoverable), else transient. */
function failure(status: number, text: string, what: string): Error {
  const detail = `${what} failed: ${errorMessage(text) || `HTTP ${status}`}`;
  if (status >= 400 && status < 500 && status !== 408 && status !== 429)
    return new UnrecoverableError(detail);
  return new TransientError(detail);
}

/** The code of the container's `{ error: { code } }`, or null. */
function errorCode(text: string): string | null {
  try {
    const body = MediaErrorBody.safeParse(JSON.parse(text));
    return body.success ? body.data.error.code : null;
  } catch {
    return null;
  }
}

/** The container's `{ error: { message } }`, or the start of a plain-text body. */
function errorMessage(text: string): string {
  try {
    const body = MediaErrorBody.safeParse(JSON.parse(text));
    if (body.success) return body.data.error.message;
  } catch {
    /* plain text body */
  }
  return text.slice(0, 500);
}

async function* ndjsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let pending = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += decoder.decode(value, { stream: true });
    let nl: number;
    while ((nl = pending.indexOf('\n')) !== -1) {
      const line = pending.slice(0, nl).trim();
      pending = pending.slice(nl + 1);
      if (line) yield line;
    }
  }
  if (pending.trim()) yield pending.trim();
}

/** A file to send, with its length when known. */
export interface SizedStream {
  body: ReadableStream<Uint8Array>;
  size?: number;
}

type FormPart =
  | { name: string; value: string }
  | {
      name: string;
      filename: string;
      contentType: string;
      stream: ReadableStream<Uint8Array>;
      /** The stream's length in bytes, when known (an R2 object's size). */
      size?: number;
    };

/**
 * Builds a multipart/form-data body that streams its file parts instead of buffering them. In
 * workerd the file parts are piped natively (no JavaScript per chunk), and when every file part's
 * size is known the body has a fixed length (FixedLengthStream): it is sent with Content-Length,
 * not chunked. Chunked, R2's 4 KB reads each became a chunk that the container's HTTP parser
 * handed on one by one (4,188 for 16.5 MB, 0.26–0.57 s of its receive). Elsewhere (Node tests)
 * through a plain TransformStream.
 */
export function multipartStream(parts: FormPart[]): {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  /** The body's length in bytes, or null when a file part's size is unknown. */
  length: number | null;
} {
  const boundary = newBoundary();
  const encoder = new TextEncoder();
  const framed = parts.map((part) => ({
    part,
    head: partHead(boundary, part.name, 'stream' in part ? part : undefined),
    value: 'stream' in part ? null : encoder.encode(part.value),
  }));
  const closing = closingDelimiter(boundary);
  const length = multipartLength(framed, closing.length);
  const { readable, writable } = bodyPipe(length);
  const write = async (bytes: Uint8Array) => {
    const writer = writable.getWriter();
    try {
      await writer.write(bytes);
    } finally {
      writer.releaseLock();
    }
  };
  (async () => {
    try {
      for (const { part, head, value } of framed) {
        await write(head);
        if ('stream' in part) await part.stream.pipeTo(writable, { preventClose: true });
        else await write(value!);
        await write(PART_END);
      }
      await write(closing);
      await writable.close();
    } catch (err) {
      await writable.abort(err).catch(() => {});
    }
  })();
  return {
    body: readable as ReadableStream<Uint8Array>,
    contentType: multipartContentType(boundary),
    length,
  };
}

/** Pure: the whole body's length in bytes, or null when a file part's size is unknown. */
function multipartLength(
  framed: Array<{ part: FormPart; head: Uint8Array; value: Uint8Array | null }>,
  closingBytes: number,
): number | null {
  let total = closingBytes;
  for (const { part, head, value } of framed) {
    const body = 'stream' in part ? part.size : value!.length;
    if (body === undefined) return null;
    total += head.length + body + PART_END.length;
  }
  return total;
}

/** workerd's native pipes (a fixed-length one when the length is known), else a plain TransformStream. */
function bodyPipe(length: number | null): TransformStream<Uint8Array, Uint8Array> {
  const g = globalThis as {
    IdentityTransformStream?: typeof TransformStream;
    FixedLengthStream?: new (length: number) => TransformStream<Uint8Array, Uint8Array>;
  };
  if (length !== null && g.FixedLengthStream) return new g.FixedLengthStream(length);
  return g.IdentityTransformStream
    ? new g.IdentityTransformStream()
    : new TransformStream<Uint8Array, Uint8Array>();
}
