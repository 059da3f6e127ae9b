/**
 * @module pipeline/steps/asr-batches
 * Long media's speech recognition in batches (issue #14: 30 min of 720p failed with HTTP 431):
 * the container's `/asr` takes the VAD segments in one header (Node refuses headers past 16 KiB,
 * ≈ 450 segments) and at most 30 min of PCM in its body. Consecutive segments are grouped into
 * batches of bounded span and count, each cut at the middle of the silence between two segments
 * (whatever padding the engine takes around a segment stays inside its batch); each batch's
 * output is shifted back to media time and the outputs joined. Whisper decodes per segment, so
 * the words are the same as from one request.
 */
import type { AsrOutput, TimeSegment } from '../../contract/media.js';
import { PCM_BYTES_PER_SEC, PCM_FORMAT } from '../../contract/media-protocol.js';

/** Media time one batch of PCM covers; far under the container's 30-min body limit. */
export const ASR_BATCH_MAX_SEC = 20 * 60;
/** Segments per request: ≈ 36 bytes of JSON each, ≈ 9 KB of header, under Node's 16 KiB. */
export const ASR_BATCH_MAX_SEGMENTS = 250;

export interface AsrBatch {
  /**
   * Media time where the batch's PCM starts, on the PCM's sample grid (so its byte range starts
   * exactly there); `toSec` null: to the end of the audio.
   */
  fromSec: number;
  toSec: number | null;
  /** The batch's segments in its own time (media time − fromSec). */
  segments: TimeSegment[];
}

/**
 * The batches for `segments` (in time order). One batch from 0 to the end when they fit in one
 * request; none for no segments. A single segment longer than `maxSec` is a batch of its own.
 */
export function asrBatches(
  segments: TimeSegment[],
  { maxSec = ASR_BATCH_MAX_SEC, maxSegments = ASR_BATCH_MAX_SEGMENTS } = {},
): AsrBatch[] {
  const groups: TimeSegment[][] = [];
  for (const s of segments) {
    const group = groups.at(-1);
    if (group && group.length < maxSegments && s.end - group[0].start <= maxSec) group.push(s);
    else groups.push([s]);
  }
  return groups.map((group, i) => {
    const fromSec = i === 0 ? 0 : onSampleGrid((groups[i - 1].at(-1)!.end + group[0].start) / 2);
    const toSec =
      i === groups.length - 1 ? null : onSampleGrid((group.at(-1)!.end + groups[i + 1][0].start) / 2);
    const segments = group.map((s) => ({ start: Math.max(0, s.start - fromSec), end: s.end - fromSec }));
    return { fromSec, toSec, segments };
  });
}

const onSampleGrid = (sec: number) => Math.round(sec * PCM_FORMAT.sampleRateHz) / PCM_FORMAT.sampleRateHz;

/** The byte range of the stored 16 kHz s16le PCM that `batch` covers. */
export function pcmRange({ fromSec, toSec }: AsrBatch): { offset: number; length?: number } {
  const offset = Math.round(fromSec * PCM_BYTES_PER_SEC);
  return toSec === null ? { offset } : { offset, length: Math.round(toSec * PCM_BYTES_PER_SEC) - offset };
}

/** Joins the outputs of consecutive batches, each shifted by its batch's start (media time). */
export function joinAsrOutputs(parts: Array<{ fromSec: number; output: AsrOutput }>): AsrOutput {
  const shift = <T extends { start: number; end: number }>(items: T[], by: number): T[] =>
    items.map((x) => ({ ...x, start: x.start + by, end: x.end + by }));
  const first = parts[0]?.output ?? { engine: 'none', words: [] };
  const engines = [...new Set(parts.map((p) => p.output.engine))];
  const warnings = [...new Set(parts.flatMap((p) => p.output.warnings ?? []))];
  const silences = parts.flatMap((p) => shift(p.output.silences ?? [], p.fromSec));
  return {
    engine: engines.join('+') || first.engine,
    ...(first.model ? { model: first.model } : {}),
    words: parts.flatMap((p) => shift(p.output.words, p.fromSec)),
    ...(warnings.length ? { warnings } : {}),
    ...(parts.some((p) => p.output.silences) ? { silences } : {}),
    // The first batch's language: later batches are transcribed in it (speech.ts).
    ...(first.language !== undefined
      ? { language: first.language, language_probability: first.language_probability ?? null }
      : {}),
  };
}
