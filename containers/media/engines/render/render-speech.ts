/**
 * @module containers/media/engines/render/render-speech
 * The new speech's timed words of each job's last render, for `GET /render/speech/{job}`: the
 * Worker asks once the render has answered (its report says how many words there are) and makes
 * the job's caption files of them. Kept a while after the render, then forgotten; a job's words
 * are never more than its speech, and only the latest jobs' are held.
 */
import type { RenderSpeech } from '../../../../src/contract/render.js';

/** Long enough for the Worker to store a large output before it asks. */
const KEPT_MS = 15 * 60_000;
/** The most jobs whose words are held at once (the oldest go first). */
const MAX_KEPT = 64;

const kept = new Map<string, { speech: RenderSpeech; forget: ReturnType<typeof setTimeout> }>();

/** Keeps `jobId`'s words (replacing an earlier render's). */
export function keepRenderSpeech(jobId: string, speech: RenderSpeech): void {
  forgetRenderSpeech(jobId);
  if (kept.size >= MAX_KEPT) forgetRenderSpeech(kept.keys().next().value!);
  const forget = setTimeout(() => kept.delete(jobId), KEPT_MS);
  forget.unref?.();
  kept.set(jobId, { speech, forget });
}

export function forgetRenderSpeech(jobId: string): void {
  clearTimeout(kept.get(jobId)?.forget);
  kept.delete(jobId);
}

/** The words of `jobId`'s last render here, or null. */
export const renderSpeech = (jobId: string): RenderSpeech | null => kept.get(jobId)?.speech ?? null;
