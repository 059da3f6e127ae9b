/**
 * @module containers/media/engines/render/speech-audio
 * Which audio of a supplied speech file (voice_generator 2) is the speech. As for an analysis
 * (src/contract/audio-choice.ts): its first track's channels averaged, unless that is silent or
 * nearly so (a stereo pair with one channel phase-inverted cancels; a first track left empty) and
 * another candidate is clearly louder. Measured here by each candidate's peak: cancellation and
 * empty tracks are digital silence or close to it. Another choice is written once to a mono WAV,
 * which the encoder, the mouth and the caption files then read like any speech file.
 */
import { join } from 'node:path';
import type { ProbeResult } from '../../../../src/contract/media.js';
import type { AudioChoice } from '../../../../src/contract/media-protocol.js';
import { audioCandidates, clearestCandidate } from '../../../../src/contract/audio-choice.js';
import { channelMixFilter, spawnFfmpeg } from '../../core/ffmpeg.js';

/** A candidate whose loudest sample is below this is too quiet to be the speech, dBFS. */
export const SPEECH_PEAK_FLOOR_DBFS = -40;

/** The rate the peak is measured at: enough for speech, a quarter of the work of 48 kHz. */
const MEASURE_RATE_HZ = 16_000;

export interface SpeechAudio {
  /** The file the render reads as the speech: the supplied one, or the chosen candidate's WAV. */
  path: string;
  /** What was chosen, for the report's notes; null when the supplied file is read as it is. */
  note: string | null;
}

/**
 * The speech of the file at `path`: the file itself when its first track's average is loud enough
 * or it has no other candidate (mono, one track); else the clearest candidate, written to
 * `workDir`. Decodes each candidate once until one is loud enough, and the chosen one once more.
 */
export async function chooseSpeechAudio(
  path: string,
  audio: NonNullable<ProbeResult['audio']>,
  workDir: string,
  signal?: AbortSignal,
): Promise<SpeechAudio> {
  const candidates = audioCandidates(audio);
  if (candidates.length === 1) return { path, note: null };
  const peaks: number[] = [];
  for (const candidate of candidates) {
    const peak = await peakDbfs(path, candidate, signal);
    peaks.push(peak);
    if (peak >= SPEECH_PEAK_FLOOR_DBFS) break;
  }
  const keep = clearestCandidate(peaks);
  if (keep === 0) return { path, note: null };
  const chosen = candidates[keep]!;
  const out = join(workDir, 'speech-chosen.wav');
  using proc = spawnFfmpeg(['-y', ...candidateArgs(path, chosen), '-c:a', 'pcm_s16le', out], signal);
  proc.child.stdin.end();
  await proc.done;
  return { path: out, note: speechChoiceNote(chosen) };
}

/** Pure: the report's note for a speech taken from another candidate than the first track's average. */
export function speechChoiceNote(choice: AudioChoice): string {
  return choice.mix === 'side'
    ? "the speech audio's stereo channels cancel each other when mixed (one of them is recorded phase-inverted): their difference is used"
    : `the speech audio's first track is silent or nearly so: its track ${choice.stream + 1} is used`;
}

/** ffmpeg's input and audio arguments of one candidate, mono, on the file's timeline. */
function candidateArgs(path: string, choice: AudioChoice): string[] {
  return [
    ...['-i', path, '-vn', '-sn', '-dn', '-map', `0:a:${choice.stream}`],
    ...['-af', channelMixFilter(choice.mix)],
    ...['-ac', '1'],
  ];
}

/** The loudest sample of a candidate, dBFS (−Infinity for digital silence). Streams; holds no audio. */
async function peakDbfs(path: string, choice: AudioChoice, signal?: AbortSignal): Promise<number> {
  using proc = spawnFfmpeg(
    [...candidateArgs(path, choice), '-ar', String(MEASURE_RATE_HZ), '-f', 's16le', 'pipe:1'],
    signal,
  );
  proc.child.stdin.end();
  let peak = 0;
  let odd: number | null = null;
  for await (const chunk of proc.child.stdout as AsyncIterable<Buffer>) {
    let i = 0;
    if (odd !== null && chunk.length > 0) {
      peak = Math.max(peak, Math.abs(chunk.readInt8(0) * 256 + odd));
      odd = null;
      i = 1;
    }
    for (; i + 1 < chunk.length; i += 2) peak = Math.max(peak, Math.abs(chunk.readInt16LE(i)));
    if (i < chunk.length) odd = chunk[i]!;
  }
  await proc.done;
  return 20 * Math.log10(peak / 32_768);
}
