/**
 * @module bench/speech/fillers-tune
 * Tries filler-recovery settings of the Whisper engine on the disfluent clips and prints
 * hesitation recall/precision (start within 150 ms of the aligned reference filler) and WER of
 * the other words: `[SPLICED=1] npx tsx bench/speech/fillers-tune.ts` (SPLICED adds `spliced.ts`).
 */
import {
  FasterWhisperEngine,
  type FasterWhisperOptions,
} from '../../containers/media/engines/asr/faster-whisper.js';
import { HESITATION_METHODS } from './methods.js';
import { loadSpliced } from './spliced.js';
import { hesitations, loadDisfluent, matchFillers, referenceAlignment } from './fillers.js';

const TRIALS: Array<{ name: string } & FasterWhisperOptions> = [
  ...Object.entries(HESITATION_METHODS).map(([name, options]) => ({ name, ...options })),
  { name: 'disfluent prompt, whisper times', align: false },
];

const clips = [...(await loadDisfluent()), ...(process.env.SPLICED ? await loadSpliced() : [])];
const refs = await Promise.all(
  clips.map(async (c) => hesitations(await referenceAlignment(c.pcm, c.reference))),
);
for (const t of TRIALS.filter(
  (_, i) => !process.env.TRIAL || process.env.TRIAL.split(',').includes(String(i)),
)) {
  using engine = new FasterWhisperEngine(t);
  let tp = 0,
    fp = 0,
    fn = 0;
  const errs: number[] = [];
  const lines: string[] = [];
  for (const [i, c] of clips.entries()) {
    const out = await engine.transcribe(c.pcm);
    const m = matchFillers(refs[i], hesitations(out.words));
    tp += m.tp;
    fp += m.fp;
    fn += m.fn;
    errs.push(...m.startErrors);
    lines.push(
      `  ${c.file}: tp ${m.tp} fp ${m.fp} fn ${m.fn} | ${out.words.map((w) => `${w.word}@${w.start}`).join(' ')}`,
    );
  }
  errs.sort((a, b) => a - b);
  console.log(
    `${t.name}: recall ${((100 * tp) / (tp + fn)).toFixed(0)} % precision ${((100 * tp) / Math.max(1, tp + fp)).toFixed(0)} % (tp ${tp} fp ${fp} fn ${fn}) median start err ${(1000 * (errs[errs.length >> 1] ?? NaN)).toFixed(0)} ms`,
  );
  if (process.env.VERBOSE) console.log(lines.join('\n'));
}
