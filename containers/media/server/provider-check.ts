/**
 * @module containers/media/server/provider-check
 * Before speech synthesis goes to the remote voice provider (voice_generator 1), checks that the
 * provider's host resolves from here. A name that does not resolve is the deployment's setup (no
 * outbound DNS, a wrong ELEVENLABS_BASE_URL), not a passing outage: the request fails at once with a
 * message that says so (422, never retried), instead of 68 s of retries ending in "fetch failed".
 * A provider that resolves but does not answer (refused, timeout, 5xx) is an outage and stays
 * retryable (502); one that refuses the credential is 401 from the engine (never retried).
 * Lives at the route level: the TTS engine itself is left as it is.
 */
import { lookup } from 'node:dns/promises';
import type { MiddlewareHandler } from 'hono';
import { mediaConfig, type ElevenLabsConfig } from '../core/config.js';
import { ELEVENLABS_DEFAULT_BASE_URL } from '../engines/tts/elevenlabs.js';

/** DNS errors that mean "this name does not exist from here", not "try again". */
const UNRESOLVABLE = new Set(['ENOTFOUND', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA']);
const LOOKUP_TIMEOUT_MS = 5_000;

/** Pure: the provider's host (ELEVENLABS_BASE_URL, else the public API). */
export const providerHost = (elevenLabs: ElevenLabsConfig = mediaConfig().tts.elevenLabs): string =>
  new URL(elevenLabs.baseUrl ?? ELEVENLABS_DEFAULT_BASE_URL).hostname;

/** Null when the host resolves (or the answer is unknown); else the reason it cannot be used. */
export async function unresolvable(host: string): Promise<string | null> {
  try {
    await Promise.race([
      lookup(host),
      new Promise((_, reject) =>
        setTimeout(
          () => reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' })),
          LOOKUP_TIMEOUT_MS,
        ).unref(),
      ),
    ]);
    return null;
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    return UNRESOLVABLE.has(code) ? code : null;
  }
}

export const voiceProviderCheck: MiddlewareHandler = async function voiceProviderCheck(c, next) {
  if (c.req.method !== 'POST') return next();
  const body = (await c.req.json().catch(() => null)) as { generator?: unknown; credential?: unknown } | null;
  if (Number(body?.generator) !== 1) return next();
  // No credential at all: the engine's own answer ("needs a credential") is the one to act on.
  if (
    !(typeof body?.credential === 'string' && body.credential.trim()) &&
    !mediaConfig().tts.elevenLabs.apiKey
  )
    return next();
  const host = providerHost();
  const why = await unresolvable(host);
  if (why) {
    return c.json(
      {
        error: {
          code: 'tts_provider_not_configured',
          message: `voice_generator 1: the voice provider (${host}) cannot be reached from this server (its name does not resolve); configure ELEVENLABS_BASE_URL, or use voice_generator 0`,
        },
      },
      422,
    );
  }
  return next();
};
