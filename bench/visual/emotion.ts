/**
 * @module bench/visual/emotion
 * Facial emotion against labels: per-class precision/recall and the confusion table of each
 * candidate decision rule, over a labelled set of clips sampled at 2 fps.
 *
 *   npx tsx bench/visual/emotion.ts [--set DIR] [--fps 2]
 *
 * Built-in set: the calm talking heads of ../shared/media/talking_head, every frame labelled
 * neutral (people speaking calmly to the camera). `--set DIR` adds acted clips named the RAVDESS
 * way (`01-01-06-01-02-01-12.mp4`: third field = emotion; calm counts as neutral); licences of
 * such clips are the caller's to record.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { disposeSharedVisionPool, sharedVisionPool } from '../../containers/media/engines/vision/pool.js';
import { runVision, mediaPath, readLabels } from '../../test/fixtures/visual/run-vision.js';
import {
  confusion,
  neutralUnlessRule,
  ravdessLabel,
  topRule,
  type Rule,
  type Scores,
} from './emotion-metrics.js';

const { values: args } = parseArgs({ options: { set: { type: 'string' }, fps: { type: 'string' } } });
const fps = Number(args.fps ?? 2);
const labels = readLabels();
const CALM = [
  'talking_head/retalking_face1.mp4',
  'talking_head/retalking_face2.mp4',
  'talking_head/retalking_face3.mp4',
  'talking_head/sadtalker_wda_aoc.mp4',
  'talking_head/sadtalker_wda_katiehill.mp4',
];
const clips: Array<{ name: string; file: string; truth: string; calm: boolean }> = CALM.flatMap((m) => {
  const file = mediaPath(labels, m);
  return file ? [{ name: m, file, truth: 'neutral', calm: true }] : [];
});
if (args.set)
  for (const f of readdirSync(args.set).sort()) {
    const truth = ravdessLabel(f);
    if (truth) clips.push({ name: f, file: path.join(args.set, f), truth, calm: false });
  }

const RULES: Rule[] = [
  topRule(0.3),
  neutralUnlessRule(0.5),
  neutralUnlessRule(0.7),
  neutralUnlessRule(0.5, 2),
  neutralUnlessRule(0.7, 2),
];

await sharedVisionPool().ready();
const perClip: Array<{ clip: (typeof clips)[number]; scores: Array<Scores | null> }> = [];
for (const clip of clips) {
  const { frames } = await runVision(clip.file, { fps });
  perClip.push({ clip, scores: frames.map((f) => (f.face ? (f.face.emotion ?? []) : null)) });
}
disposeSharedVisionPool();

const pct = (x: number | null) => (x === null ? '   –' : `${Math.round(x * 100)}`.padStart(4));
for (const rule of RULES) {
  const pairs: Array<{ truth: string; predicted: string }> = [];
  const calmRows: string[] = [];
  let calmNeutral = 0;
  let calmFrames = 0;
  let calmFearSurprise = 0;
  let calmPositive = 0;
  for (const { clip, scores } of perClip) {
    const predicted = rule.label(scores).filter((p): p is string => p !== null);
    for (const p of predicted) pairs.push({ truth: clip.truth, predicted: p });
    if (!clip.calm) continue;
    const neutral = predicted.filter((p) => p === 'neutral').length;
    calmNeutral += neutral;
    calmFrames += predicted.length;
    calmFearSurprise += predicted.filter((p) => p === 'fear' || p === 'surprise').length;
    calmPositive += predicted.filter((p) => p === 'happy').length;
    const counts = new Map<string, number>();
    for (const p of predicted) counts.set(p, (counts.get(p) ?? 0) + 1);
    calmRows.push(
      `    ${clip.name.padEnd(36)} ${[...counts]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${Math.round((v / predicted.length) * 100)}%`)
        .join(', ')}`,
    );
  }
  const { table, classes } = confusion(pairs);
  console.log(`\n== rule: ${rule.name}`);
  console.log(
    `  calm talking heads: neutral on ${calmNeutral}/${calmFrames} samples (${pct(calmFrames ? calmNeutral / calmFrames : null).trim()} %), neutral or happy on ${pct(calmFrames ? (calmNeutral + calmPositive) / calmFrames : null).trim()} %, fear or surprise on ${calmFearSurprise}`,
  );
  console.log(calmRows.join('\n'));
  console.log('  class        support predicted precision% recall%');
  for (const c of classes)
    console.log(
      `  ${c.label.padEnd(12)} ${String(c.support).padStart(7)} ${String(c.predicted).padStart(9)} ${pct(c.precision).padStart(10)} ${pct(c.recall).padStart(7)}`,
    );
  const names = classes.map((c) => c.label);
  console.log(`  confusion (rows truth, columns predicted): ${names.join(' ')}`);
  for (const t of names) {
    const row = table.get(t);
    if (row)
      console.log(
        `  ${t.padEnd(12)} ${names.map((p) => String(row.get(p) ?? 0).padStart(p.length)).join(' ')}`,
      );
  }
}
