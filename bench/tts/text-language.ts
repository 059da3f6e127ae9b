/**
 * @module bench/tts/text-language
 * Which voice a description gets (`containers/media/engines/tts/text-language.ts`), on text:
 * `SPEECH_SETS_DIR=… npx tsx bench/tts/text-language.ts`. The sentences are the references of
 * the speech sets (docs/speech-sets.md: `wuw-en`'s spontaneous English, the multilingual set's
 * five languages) and the voice bench's English sentences, each whole and cut to its first
 * 3 and 5 words (a short description). One table: per set and length, how many the rule names
 * in their own language, how many it leaves English, and how many it sends to a wrong language,
 * beside what the detector alone answers. Floors: English sentences sent elsewhere ≤ 1 %; whole
 * sentences of another language named right ≥ 95 %.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectText, languageOfText } from '../../containers/media/engines/tts/text-language.js';
import { parseManifest, SETS_DIR } from '../speech/sets.js';
import { HELDOUT_SENTENCES } from './heldout.js';
import { SENTENCES } from './run.js';

const referencesOf = (set: string) =>
  parseManifest(readFileSync(join(SETS_DIR, set, 'MANIFEST.tsv'), 'utf8')).map((r) => ({
    language: r.language,
    text: r.reference_transcript,
  }));

const english = [
  ...referencesOf('wuw-en'),
  ...[...SENTENCES, ...HELDOUT_SENTENCES].map((text) => ({ language: 'en', text })),
];
const other = referencesOf('multilingual');

const firstWords = (text: string, n: number) => text.split(/\s+/).slice(0, n).join(' ');

console.log(
  '| sentences | length | n | rule: own language | rule: English | rule: wrong | detector alone: own language | floor |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const [name, sentences] of [
  ['English', english],
  ['other languages', other],
] as const) {
  for (const words of [3, 5, Infinity]) {
    let own = 0;
    let kept = 0;
    let alone = 0;
    for (const { language, text } of sentences) {
      const cut = Number.isFinite(words) ? firstWords(text, words) : text;
      const detection = await detectText(cut);
      const named = languageOfText(cut, detection) ?? 'en';
      if (named === language) own++;
      else if (named === 'en') kept++;
      if (detection.language === language) alone++;
    }
    const n = sentences.length;
    const wrong = n - own - kept;
    const pct = (x: number) => `${x} (${((100 * x) / n).toFixed(1)} %)`;
    const floor =
      name === 'English'
        ? `sent elsewhere ≤ 1 %: ${wrong <= n / 100 ? 'yes' : 'NO'}`
        : words === Infinity
          ? `own ≥ 95 %: ${own >= 0.95 * n ? 'yes' : 'NO'}`
          : '–';
    console.log(
      `| ${name} | ${Number.isFinite(words) ? `first ${words} words` : 'whole'} | ${n} | ${pct(own)} | ${pct(kept)} | ${pct(wrong)} | ${pct(alone)} | ${floor} |`,
    );
  }
}
