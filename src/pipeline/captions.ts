/**
 * @module pipeline/captions
 * A job's caption files (`GET /api/jobs/{id}/captions.vtt|srt`): cues of timed words (an analysis
 * job's transcript, a processing job's new speech on its output's timeline) as WebVTT and SubRip,
 * stored under the job's `outputs/` prefix, so deleting the job or its expiry removes them.
 */
import { buildCues, toSrt, toWebVtt } from '../analytics/speech/captions.js';
import type { TimedWord } from '../contract/media.js';
import { r2Keys } from '../shared/r2-keys.js';

/**
 * Writes both files in `language` (a Whisper code: ISO 639-1, which BCP 47 takes as it is);
 * nothing when the words make no cue. True when written.
 */
export async function storeCaptions(
  bucket: R2Bucket,
  videoId: string,
  words: readonly TimedWord[],
  language: string,
): Promise<boolean> {
  const cues = buildCues(words, { language });
  if (cues.length === 0) return false;
  await bucket.put(r2Keys.captions(videoId, 'vtt'), toWebVtt(cues, language), {
    httpMetadata: { contentType: 'text/vtt; charset=utf-8', contentLanguage: language },
  });
  await bucket.put(r2Keys.captions(videoId, 'srt'), toSrt(cues), {
    httpMetadata: { contentType: 'application/x-subrip; charset=utf-8', contentLanguage: language },
  });
  return true;
}
