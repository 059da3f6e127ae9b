/**
 * @module contract/tts
 * The media container's `POST /tts` request: the Worker sends it (`media/client.ts`) and the
 * container reads it (`containers/media/engines/tts/routes.ts`) with this schema.
 */
import { z } from 'zod';
import { CREDENTIAL_PATTERN, CREDENTIAL_RULE, VOICE_ID_PATTERN, VOICE_ID_RULE } from './options.js';

/** Most text a single request may synthesize (characters): about 10 minutes of speech. */
export const MAX_TTS_TEXT_CHARS = 10_000;

export const TtsRequest = z.object({
  /** 0: the built-in voice (Piper, espeak-ng as its fallback); 1: the remote provider. */
  generator: z.union([z.literal(0), z.literal(1)]).default(0),
  /** What to say, trimmed. */
  text: z.string().trim().min(1).max(MAX_TTS_TEXT_CHARS),
  /** The engine's voice; null or blank: its default. */
  voice_id: z
    .string()
    .refine((v) => v.trim() === '' || VOICE_ID_PATTERN.test(v.trim()), VOICE_ID_RULE)
    .nullish(),
  /** The provider's credential (generator 1 only); null or blank: the server's. */
  credential: z
    .string()
    .refine((v) => v.trim() === '' || CREDENTIAL_PATTERN.test(v.trim()), CREDENTIAL_RULE)
    .nullish(),
});
/** What the Worker sends. */
export type TtsRequest = z.input<typeof TtsRequest>;
