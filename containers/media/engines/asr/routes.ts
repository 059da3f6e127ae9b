/**
 * @module containers/media/engines/asr/routes
 * HTTP face of the speech engines, mounted by the container server:
 * - `POST /asr`: body raw s16le 16 kHz mono PCM; optional header `x-speech-segments` (JSON
 *   `[{start,end}]` seconds from VAD) → `AsrOutput` JSON.
 * - `POST /align`: `?text=` plus a raw PCM body, or multipart with fields `text` and `audio`
 *   (raw PCM) → `{ words: TimedWord[] }`.
 * Errors are `AsrError`s, answered by the server's one handler: 4xx for bad input, 500 for engine failures.
 */
import { withScopeSignal } from '../../core/work-scope.js';
import { Hono } from 'hono';
import type { AsrOutput, TimedWord } from '../../../../src/contract/media.js';
import { isSpokenLanguage } from '../../../../src/contract/languages.js';
import { MEDIA_HEADERS, MEDIA_ROUTES, PCM_BYTES_PER_SEC } from '../../../../src/contract/media-protocol.js';
import { alignText, preloadAligner } from './align.js';
import { createAsrEngine, type AsrEngine } from './engine.js';
import { AsrError, AsrInputError } from './errors.js';
import { pcmFromBytes } from './pcm.js';
import { validateSegments } from './segments.js';

/** Largest PCM body accepted: 30 minutes of the protocol's PCM, bytes. */
export const MAX_PCM_BODY_BYTES = 30 * 60 * PCM_BYTES_PER_SEC;
const { speechSegments: SPEECH_SEGMENTS_HEADER, speechLanguage: SPEECH_LANGUAGE_HEADER } = MEDIA_HEADERS;

export interface AsrRoutesOptions {
  /** The recogniser; default: built once from the service's configuration on first request. */
  engine?: AsrEngine | (() => Promise<AsrEngine>);
  /** The aligner; default SoundSwallower's `alignText` (`align.ts`). */
  align?: (pcm: Int16Array, text: string, signal?: AbortSignal) => Promise<TimedWord[]>;
}

/**
 * Builds the ASR sub-app.
 * @example app.route('/', createAsrRoutes({ engine: new PocketsphinxEngine() }))
 */
export function createAsrRoutes({ engine, align = alignText }: AsrRoutesOptions = {}): Hono {
  let cached: Promise<AsrEngine> | undefined;
  const getEngine = (): Promise<AsrEngine> => {
    if (engine && typeof engine !== 'function') return Promise.resolve(engine);
    cached ??= (engine ?? (() => createAsrEngine()))();
    cached.catch(() => {
      cached = undefined;
    });
    return cached;
  };

  const app = new Hono();

  app.post(MEDIA_ROUTES.asr, async function asrHandler(c) {
    const segments = parseSegmentsHeader(c.req.header(SPEECH_SEGMENTS_HEADER));
    const language = parseLanguageHeader(c.req.header(SPEECH_LANGUAGE_HEADER));
    const pcm = pcmFromBytes(await readBody(c.req.raw));
    const asr = await getEngine();
    const out: AsrOutput = await asr.transcribe(pcm, {
      speechSegments: segments,
      signal: withScopeSignal(c.req.raw.signal),
      language,
    });
    return c.json(out);
  });

  app.post(MEDIA_ROUTES.align, async function alignHandler(c) {
    let text = c.req.query('text');
    let bytes: Uint8Array;
    if ((c.req.header('content-type') ?? '').startsWith('multipart/form-data')) {
      const form = await c.req.parseBody();
      text = typeof form.text === 'string' ? form.text : text;
      const audio = form.audio;
      if (!(audio instanceof File))
        throw new AsrInputError('invalid_audio', 'multipart field "audio" (raw s16le PCM file) is missing');
      bytes = new Uint8Array(await audio.arrayBuffer());
    } else {
      bytes = await readBody(c.req.raw);
    }
    if (!text?.trim())
      throw new AsrInputError(
        'invalid_text',
        'text to align is missing: pass ?text= or a multipart "text" field',
      );
    const words = await align(pcmFromBytes(bytes), text, withScopeSignal(c.req.raw.signal));
    return c.json({ words });
  });

  return app;
}

let defaultEngine: Promise<AsrEngine> | undefined;

/**
 * The service's engine, chosen once by its configuration (ASR_ENGINE, PYTHON_VENV, WHISPER_MODEL_DIR):
 * `POST /asr` and the render (the new speech of a processing job) share its warm Whisper.
 */
export function defaultAsrEngine(): Promise<AsrEngine> {
  defaultEngine ??= createAsrEngine();
  defaultEngine.catch(() => {
    defaultEngine = undefined;
  });
  return defaultEngine;
}

/** The sub-app with the engine chosen by the service's configuration. */
export const asrRoutes = createAsrRoutes({ engine: defaultAsrEngine });

/**
 * Loads the service's recogniser now (Whisper's model load is 1-2 s), then starts the
 * aligner's process, so the first analysis waits for neither. Failures are left
 * for the first request to report.
 */
export async function preloadAsr(): Promise<void> {
  try {
    const engine = (await defaultAsrEngine()) as AsrEngine & { load?: () => Promise<void> };
    await engine.load?.();
    await preloadAligner();
  } catch {
    // reported by the first /asr or /align request
  }
}

function parseLanguageHeader(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const code = value.trim();
  if (!isSpokenLanguage(code))
    throw new AsrInputError('invalid_language', `${SPEECH_LANGUAGE_HEADER} is not a Whisper language code`);
  return code;
}

function parseSegmentsHeader(value: string | undefined) {
  if (value === undefined || value.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new AsrInputError('invalid_segments', `${SPEECH_SEGMENTS_HEADER} is not valid JSON`);
  }
  return validateSegments(parsed);
}

/** Reads a request body as a stream, refusing more than MAX_PCM_BODY_BYTES. */
async function readBody(req: Request): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array();
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (declared > MAX_PCM_BODY_BYTES) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_PCM_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

const tooLarge = () =>
  new AsrError(
    'invalid_audio',
    `audio body exceeds ${MAX_PCM_BODY_BYTES} bytes (30 min of 16 kHz s16 mono)`,
    413,
  );
