/**
 * @module containers/media/engines/tts/routes
 * `POST /tts` JSON `{generator: 0|1, text, voice_id?, credential?}` → `audio/wav` (16-bit PCM
 * mono; 22.05 kHz from Piper or espeak-ng, 24 kHz from the provider). Headers `x-tts-engine`,
 * `x-tts-voice` and `x-tts-notes` (JSON array, ASCII-escaped) describe the result; the WAV
 * carries the same provenance in a `LIST/INFO` chunk (`wav.ts`), which the render reads to
 * report which voice spoke. An engine that synthesises sentence by sentence (the Piper voice)
 * is streamed: the WAV's head goes out with the first sentence, its size fields "unknown"
 * (`streamingWavHead`), and no `content-length`/`x-audio-duration`; a whole result (espeak-ng,
 * the provider) keeps both. Errors found before the first sentence is spoken are
 * `{error:{code,message}}` with their status; a failure later cuts the stream off (never a
 * WAV that looks complete).
 */
import { withScopeSignal } from '../../core/work-scope.js';
import { Hono } from 'hono';
import { MEDIA_HEADERS, MEDIA_ROUTES } from '../../../../src/contract/media-protocol.js';
import type { z } from 'zod';
import { mediaConfig } from '../../core/config.js';
import { createElevenLabsEngine } from './elevenlabs.js';
import { MAX_TTS_TEXT_CHARS, TtsRequest } from '../../../../src/contract/tts.js';
import type { TtsEngine } from './engine.js';
import { TtsError } from './errors.js';
import { createEmbeddedTtsEngine } from './embedded.js';
import { streamingWavHead, withProvenance } from './wav.js';

export interface TtsRoutesOptions {
  /** Engine per generator number. Default: 0 = Piper voice, else espeak-ng (`embedded.ts`); 1 = ElevenLabs from env (read per request). */
  engines?: Partial<Record<0 | 1, TtsEngine | (() => TtsEngine)>>;
}

const blankless = (v: string | null | undefined) => v?.trim() || undefined;

/** The request through the contract's schema; each bad field has its own code. */
function readRequest(body: unknown): z.output<typeof TtsRequest> {
  if (!body || typeof body !== 'object')
    throw new TtsError(
      'tts_request_invalid',
      'body: expected JSON {generator, text, voice_id?, credential?}',
      400,
    );
  const parsed = TtsRequest.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = String(issue.path[0] ?? 'body');
  if (field === 'generator')
    throw new TtsError(
      'tts_generator_invalid',
      `generator: must be 0 or 1, got ${JSON.stringify((body as { generator?: unknown }).generator)}`,
      400,
    );
  if (field === 'text' && issue.code === 'too_big')
    throw new TtsError('tts_text_too_long', `text: more than ${MAX_TTS_TEXT_CHARS} characters`, 400);
  if (field === 'text') throw new TtsError('tts_text_missing', 'text: a non-empty string is required', 400);
  if (field === 'voice_id') throw new TtsError('tts_voice_invalid', `voice_id: ${issue.message}`, 400);
  if (field === 'credential')
    throw new TtsError('tts_credential_invalid', `credential: ${issue.message}`, 400);
  throw new TtsError('tts_request_invalid', `${field}: ${issue.message}`, 400);
}

/** Builds the TTS sub-app. */
export function createTtsRoutes({ engines = {} }: TtsRoutesOptions = {}) {
  const embedded = createEmbeddedTtsEngine();
  const pick = (g: 0 | 1): TtsEngine => {
    const e = engines[g];
    if (e) return typeof e === 'function' ? e() : e;
    // Env is read per request so a deployment can rotate keys without a restart.
    return g === 0 ? embedded : createElevenLabsEngine(mediaConfig().tts.elevenLabs);
  };
  const app = new Hono();
  app.post(MEDIA_ROUTES.tts, async function tts(c) {
    const { generator, text, voice_id, credential } = readRequest(await c.req.json().catch(() => undefined));
    const engine = pick(generator);
    // Ended when the client goes away or the response stream is cancelled.
    const stop = new AbortController();
    const req = {
      text,
      voiceId: blankless(voice_id),
      credential: generator === 1 ? blankless(credential) : undefined,
      signal: withScopeSignal(AbortSignal.any([c.req.raw.signal, stop.signal])),
    };
    if (engine.synthesizeStream) {
      const speech = await engine.synthesizeStream(req);
      const notes = speech.notes ?? [];
      return new Response(
        wavStream(
          streamingWavHead(speech.sampleRateHz, { engine: speech.engine, voice_id: speech.voiceId, notes }),
          speech.pcm,
          stop,
        ),
        {
          headers: {
            'content-type': 'audio/wav',
            ...provenanceHeaders(speech.engine, speech.voiceId, notes),
          },
        },
      );
    }
    const result = await engine.synthesize(req);
    const notes = result.notes ?? [];
    const wav = withProvenance(result.wav, { engine: result.engine, voice_id: result.voiceId, notes });
    return new Response(new Uint8Array(wav), {
      headers: {
        'content-type': 'audio/wav',
        'content-length': String(wav.length),
        [MEDIA_HEADERS.audioDuration]: result.durationSec.toFixed(3),
        ...provenanceHeaders(result.engine, result.voiceId, notes),
      },
    });
  });
  return app;
}

const provenanceHeaders = (engine: string, voiceId: string, notes: string[]) => ({
  [MEDIA_HEADERS.ttsEngine]: engine,
  [MEDIA_HEADERS.ttsVoice]: voiceId,
  [MEDIA_HEADERS.ttsNotes]: JSON.stringify(notes).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  ),
});

/** The WAV head, then each piece of PCM as it is synthesised; cancelling the response stops the synthesis. */
function wavStream(
  head: Buffer,
  pcm: AsyncIterable<Int16Array>,
  stop: AbortController,
): ReadableStream<Uint8Array> {
  const pieces = pcm[Symbol.asyncIterator]();
  let sentHead = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sentHead) {
        sentHead = true;
        controller.enqueue(new Uint8Array(head));
        return;
      }
      try {
        const { value, done } = await pieces.next();
        if (done) controller.close();
        else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      } catch (err) {
        controller.error(err);
      }
    },
    async cancel() {
      stop.abort();
      await pieces.return?.();
    },
  });
}

/** The sub-app with default engines; the container server mounts it. */
export const ttsRoutes = createTtsRoutes();
