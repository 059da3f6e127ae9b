/**
 * @module containers/media/engines/render/caption-track
 * Render stage 3: the WebVTT caption track. New speech that was synthesized from (or is known to
 * say) the caption text is force-aligned (`speech-words.ts`); when alignment fails (a script the
 * English aligner cannot read, Russian or Greek), the script's words take the times the recogniser
 * heard them at (`script-words.ts`), and without either the cue times are an even split of the
 * output; the report says which.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RenderReport } from '../../../../src/contract/render.js';
import { evenWordTimes, toWebVtt, type CaptionWord } from './captions.js';
import type { Prepared } from './prepare.js';
import type { RenderInput } from './types.js';
import type { RenderLog } from './render-log.js';
import { scriptWords } from './script-words.js';
import type { SpeechTiming } from './speech-words.js';

export interface CaptionTrack {
  path: string;
  report: NonNullable<RenderReport['captions']>;
}

export async function writeCaptionTrack(
  input: RenderInput,
  { plan }: Prepared,
  timing: SpeechTiming,
  log: RenderLog,
): Promise<CaptionTrack | null> {
  const text = input.options.captions;
  if (!text) return null;
  const aligned = await timing.aligned;
  const heard = aligned?.length ? null : await scriptAsHeard(text, timing);
  const words = aligned?.length ? aligned : (heard ?? evenWordTimes(text, plan.durationSec));
  const path = join(input.workDir, 'captions.vtt');
  await writeFile(path, toWebVtt(words));
  log.apply('captions');
  const cuesFrom = aligned?.length ? 'alignment' : heard ? 'transcription' : 'even-split';
  if (cuesFrom !== 'alignment') log.note(`captions: cue times are ${CUE_TIMES[cuesFrom]}`);
  return { path, report: { cues_from: cuesFrom, words: words.length } };
}

/** What the caption track's cue times are, when not aligned, for the report's note. */
const CUE_TIMES = {
  transcription: "those at which the service's recogniser heard the words",
  'even-split': 'an even split of the output',
} as const;

/**
 * The script's words as the caption files have them (the recogniser's times, `script-words.ts`),
 * when they are the script's; null otherwise (the recogniser's own pieces, or no new speech words).
 * Waits for the transcription, which otherwise runs beside the encode: only when alignment failed.
 */
async function scriptAsHeard(text: string, timing: SpeechTiming): Promise<CaptionWord[] | null> {
  const speech = await timing.speech;
  const script = scriptWords(text);
  const words = speech?.words ?? [];
  const same = words.length === script.length && words.every((w, i) => w.word === script[i]);
  return same ? words.map(({ word, start, end }) => ({ word, start, end })) : null;
}
