/**
 * @module containers/media/engines/render/caption-track
 * Render stage 3: the WebVTT caption track. New speech that was synthesized from (or is known to
 * say) the caption text is force-aligned (`speech-words.ts`); without an aligner, or when
 * alignment fails, the cue times are an even split of the output, and the report says which.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RenderReport } from '../../../../src/contract/render.js';
import { evenWordTimes, toWebVtt } from './captions.js';
import type { Prepared } from './prepare.js';
import type { RenderInput } from './types.js';
import type { RenderLog } from './render-log.js';
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
  const fromAlignment = !!aligned && aligned.length > 0;
  const words = fromAlignment ? aligned : evenWordTimes(text, plan.durationSec);
  const path = join(input.workDir, 'captions.vtt');
  await writeFile(path, toWebVtt(words));
  log.apply('captions');
  return { path, report: { cues_from: fromAlignment ? 'alignment' : 'even-split', words: words.length } };
}
