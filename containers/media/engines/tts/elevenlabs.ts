/**
 * @module containers/media/engines/tts/elevenlabs
 * `TtsEngine` adapter for an ElevenLabs-compatible provider:
 * `POST {baseUrl}/v1/text-to-speech/{voice_id}?output_format=…` with header `xi-api-key` and
 * JSON `{text, model_id}`. The answer is audio bytes (MP3, or raw s16le for `pcm_*` formats),
 * which is turned into a 16-bit mono WAV at 24 kHz (the rate our encoder and aligner expect).
 * Errors carry the provider's status and its `detail.message`.
 */
import { spawnFfmpeg } from '../../core/ffmpeg.js';
import type { SynthesisRequest, SynthesisResult, TtsEngine } from './engine.js';
import { TtsError } from './errors.js';
import { parseWav, pcmToWav } from './wav.js';

export const ELEVENLABS_DEFAULT_BASE_URL = 'https://api.elevenlabs.io';
export const ELEVENLABS_DEFAULT_MODEL = 'eleven_multilingual_v2';
export const ELEVENLABS_DEFAULT_FORMAT = 'mp3_44100_128';
/** ElevenLabs' "Rachel" premade voice, its documented default. */
export const ELEVENLABS_DEFAULT_VOICE = '21m00Tcm4TlvDq8ikWAM';
/** Sample rate of the WAV we return for compressed provider formats. */
export const OUTPUT_SAMPLE_RATE_HZ = 24_000;
/** Give up on a provider call after this long. */
export const PROVIDER_TIMEOUT_MS = 120_000;

export interface ElevenLabsOptions {
  /** Default env ELEVENLABS_BASE_URL (`tts.elevenLabs` of core/config), else the public API. */
  baseUrl?: string;
  /** Server-side key used when a request brings no credential. Default env ELEVENLABS_API_KEY. */
  apiKey?: string;
  /** Default env ELEVENLABS_MODEL_ID, else eleven_multilingual_v2. */
  modelId?: string;
  /** Default env ELEVENLABS_OUTPUT_FORMAT, else mp3_44100_128. */
  outputFormat?: string;
  /** Default env ELEVENLABS_VOICE_ID, else Rachel. */
  voiceId?: string;
  fetch?: typeof fetch;
}

/**
 * @example const tts = createElevenLabsEngine({ baseUrl: 'http://127.0.0.1:8787', apiKey: 'k' });
 */
export function createElevenLabsEngine({
  baseUrl = ELEVENLABS_DEFAULT_BASE_URL,
  apiKey,
  modelId = ELEVENLABS_DEFAULT_MODEL,
  outputFormat = ELEVENLABS_DEFAULT_FORMAT,
  voiceId: defaultVoice = ELEVENLABS_DEFAULT_VOICE,
  fetch: doFetch = fetch,
}: ElevenLabsOptions = {}): TtsEngine {
  return {
    name: 'elevenlabs',
    async synthesize({ text, voiceId, credential, signal }: SynthesisRequest): Promise<SynthesisResult> {
      const key = credential || apiKey;
      if (!key) {
        throw new TtsError(
          'tts_credentials_missing',
          'voice_generator 1 needs a credential: send credential_voice_generator, or configure ELEVENLABS_API_KEY on the server',
          400,
        );
      }
      // Issue #34: the key goes out as a header, the voice as one path segment. A value that cannot
      // is the caller's mistake (400, never retried), named by its field and never quoted.
      if (!HEADER_SAFE.test(key))
        throw new TtsError(
          'tts_credential_invalid',
          `${credential ? 'credential' : 'ELEVENLABS_API_KEY'}: may hold only printable ASCII characters (no line breaks); the value is not shown`,
          400,
        );
      const voice = voiceId && voiceId !== 'default' ? voiceId : defaultVoice;
      if (/^\.*$/.test(voice))
        throw new TtsError('tts_request_invalid', 'voice_id: "." and ".." are not voice ids', 400);
      const url = `${baseUrl.replace(/\/+$/, '')}/v1/text-to-speech/${encodeURIComponent(voice)}?output_format=${encodeURIComponent(outputFormat)}`;
      const timeout = AbortSignal.timeout(PROVIDER_TIMEOUT_MS);
      let res: Response;
      try {
        res = await doFetch(url, {
          method: 'POST',
          headers: { 'xi-api-key': key, 'content-type': 'application/json', accept: 'audio/*' },
          body: JSON.stringify({ text, model_id: modelId }),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (err) {
        throw new TtsError(
          'tts_provider_unreachable',
          `ElevenLabs request failed: ${redact((err as Error).message, key)}`,
          502,
          { cause: err },
        );
      }
      if (!res.ok) throw await providerError(res, key);
      const body = Buffer.from(await res.arrayBuffer());
      if (body.length === 0)
        throw new TtsError('tts_provider_error', 'ElevenLabs returned an empty audio body', 502);
      const wav = await toWav(body, outputFormat, signal);
      const info = parseWav(wav);
      return {
        wav,
        sampleRateHz: info.sampleRateHz,
        durationSec: info.dataBytes / 2 / info.sampleRateHz,
        engine: 'elevenlabs',
        voiceId: voice,
      };
    },
  };
}

/** What an HTTP header value may hold (RFC 9110 field-value, as `Headers` accepts it, ASCII only). */
const HEADER_SAFE = /^[\x20-\x7e]+$/;

/** Pure: `text` with every occurrence of `secret` masked (a provider may quote the key it refused). */
export const redact = (text: string, secret: string): string =>
  secret.length >= 4 ? text.split(secret).join('[credential]') : text;

/** Maps a provider failure to our error, keeping its status and `detail.message`. */
async function providerError(res: Response, key: string): Promise<TtsError> {
  const text = await res.text().catch(() => '');
  let status = '';
  let message = text.slice(0, 300) || res.statusText;
  try {
    const detail = JSON.parse(text)?.detail;
    if (typeof detail === 'string') message = detail;
    else if (Array.isArray(detail)) message = detail.map((d) => d?.msg ?? JSON.stringify(d)).join('; ');
    else if (detail && typeof detail === 'object') {
      status = detail.status ?? '';
      message = detail.message ?? message;
    }
  } catch {
    /* not JSON: keep the raw text */
  }
  const what = redact(`ElevenLabs responded ${res.status}${status ? ` (${status})` : ''}: ${message}`, key);
  if (res.status === 401 || res.status === 403) return new TtsError('tts_provider_unauthorized', what, 401);
  if (res.status === 404) return new TtsError('tts_voice_not_found', what, 404);
  if (res.status === 400 || res.status === 422) return new TtsError('tts_provider_rejected', what, 422);
  if (res.status === 429) return new TtsError('tts_provider_rate_limited', what, 429);
  return new TtsError('tts_provider_error', what, 502);
}

/** Raw PCM formats are wrapped; compressed ones are decoded by ffmpeg to 24 kHz mono. */
async function toWav(body: Buffer, outputFormat: string, signal?: AbortSignal): Promise<Buffer> {
  const pcm = /^pcm_(\d+)$/.exec(outputFormat);
  if (pcm) return pcmToWav(body.subarray(0, body.length & ~1), Number(pcm[1]));
  using proc = spawnFfmpeg(
    [
      '-i',
      'pipe:0',
      '-ac',
      '1',
      '-ar',
      String(OUTPUT_SAMPLE_RATE_HZ),
      '-c:a',
      'pcm_s16le',
      '-f',
      's16le',
      'pipe:1',
    ],
    signal,
  );
  const chunks: Buffer[] = [];
  proc.child.stdout.on('data', (c: Buffer) => chunks.push(c));
  proc.child.stdin.end(body);
  try {
    await proc.done;
  } catch (err) {
    throw new TtsError(
      'tts_provider_error',
      `ElevenLabs audio (${outputFormat}) could not be decoded: ${(err as Error).message}`,
      502,
      { cause: err },
    );
  }
  return pcmToWav(Buffer.concat(chunks), OUTPUT_SAMPLE_RATE_HZ);
}
