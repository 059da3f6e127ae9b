/**
 * @module contract/audio-choice
 * Which audio of a file may carry its speech, and which of them to keep: pure, for the analysis
 * (the Worker, `src/pipeline/steps/audio.ts`, measuring each candidate's loud end) and for the
 * speech a processing job is given (the media container, `render/speech-audio.ts`, measuring each
 * candidate's peak). A candidate is an audio stream with its channels averaged (`mid`) or, for a
 * stereo pair recorded with one channel phase-inverted, their difference (`side`).
 */
import type { ProbeResult } from './media.js';
import type { AudioChoice } from './media-protocol.js';

/** Another candidate must be this much louder than the first stream's average to be kept, dB. */
export const OTHER_AUDIO_MARGIN_DB = 10;
/** At most this many audio streams are tried (a file may carry hundreds of silent ones). */
export const MAX_AUDIO_STREAMS_TRIED = 4;

/** Pure: the candidates in the order they are tried, the first stream's average first. */
export function audioCandidates(audio: NonNullable<ProbeResult['audio']>): AudioChoice[] {
  const candidates: AudioChoice[] = [{ stream: 0, mix: 'mid' }];
  if (audio.channels >= 2) candidates.push({ stream: 0, mix: 'side' });
  const streams = Math.min(audio.streams ?? 1, MAX_AUDIO_STREAMS_TRIED);
  for (let stream = 1; stream < streams; stream++) candidates.push({ stream, mix: 'mid' });
  return candidates;
}

/**
 * Pure: the index of the candidate to keep, given the loud ends (dBFS, −Infinity for silence) of
 * the first candidates tried: the loudest, another than the first only when it is at least
 * `OTHER_AUDIO_MARGIN_DB` louder; the earlier on a tie.
 */
export function clearestCandidate(loudEndsDbfs: readonly number[]): number {
  let best = 0;
  let bestScore = loudEndsDbfs[0] ?? -Infinity;
  loudEndsDbfs.forEach((level, i) => {
    const score = level - OTHER_AUDIO_MARGIN_DB;
    if (i > 0 && Number.isFinite(level) && score >= bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}
