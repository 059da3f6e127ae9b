/**
 * Parts of speech of German, French and Spanish (src/analytics/speech/pos-compromise.ts) against
 * Universal Dependencies treebanks: every sentence's words as a transcript has them (split at
 * spaces, punctuation attached), tagged by the service's own path (`buildTokens` →
 * `tagTokensWithCompromise`), then per reported tag precision and recall, and accuracy over all
 * words.
 *
 * A word is tagged right when its tag is among the gold tags of its parts ("du" = de + le: ADP
 * or DET); the gold tag a word should carry is the first of its parts' tags that is one of the
 * six reported (the service's own rule, pos.ts `tagsFromParts`).
 *
 *   UD_FILES=/work/ud/de_gsd-ud-dev.conllu,/work/ud/fr_gsd-ud-dev.conllu npx tsx bench/speech/pos.ts
 *
 * Files are named `<lang>_*.conllu` (the language is read from the name). The treebanks are
 * CC BY-SA 4.0 and not part of the repository (docs/languages.md says where they come from).
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { POS_TAGS } from '../../src/contract/result.js';
import { tagTokensWithCompromise } from '../../src/analytics/speech/pos-compromise.js';
import { buildTokens } from '../../src/analytics/speech/tokens.js';

interface Word {
  text: string;
  gold: string[];
}

/** Pure: the sentences of a CoNLL-U file as whitespace words with their parts' gold tags. */
export function sentencesOf(conllu: string): Word[][] {
  const out: Word[][] = [];
  for (const block of conllu.split(/\n\s*\n/)) {
    const words: Word[] = [];
    let open: Word | null = null;
    let mwtEnd = 0;
    let mwtGlue = false;
    for (const line of block.split('\n')) {
      if (!line || line.startsWith('#')) continue;
      const [id, form, , upos, , , , , , misc] = line.split('\t');
      if (id.includes('.')) continue;
      const noSpace = /(?:^|\|)SpaceAfter=No(?:\||$)/.test(misc ?? '');
      if (id.includes('-')) {
        mwtEnd = Number(id.split('-')[1]);
        mwtGlue = noSpace;
        open ??= { text: '', gold: [] };
        open.text += form;
        continue;
      }
      const inMwt = Number(id) <= mwtEnd;
      if (!inMwt) {
        open ??= { text: '', gold: [] };
        open.text += form;
      }
      if (upos !== 'PUNCT') open!.gold.push(upos);
      const glue = inMwt ? Number(id) === mwtEnd && mwtGlue : noSpace;
      if (inMwt && Number(id) < mwtEnd) continue;
      if (!glue) {
        words.push(open!);
        open = null;
      }
    }
    if (open) words.push(open);
    if (words.length) out.push(words);
  }
  return out;
}

const SIX = new Set<string>(POS_TAGS);

function score(language: string, sentences: Word[][]) {
  const tp: Record<string, number> = {};
  const fp: Record<string, number> = {};
  const fn: Record<string, number> = {};
  let n = 0;
  let ok = 0;
  const t0 = performance.now();
  for (const words of sentences) {
    const tokens = buildTokens(
      words.map((w, i) => ({ word: w.text, start: i, end: i + 0.5, confidence: 1 })),
      language,
    );
    const tags = tagTokensWithCompromise(tokens, language);
    // buildTokens drops punctuation-only words: a word is found again by its start (its index).
    const tagAt = new Map(tokens.map((t, k) => [t.start, tags[k]]));
    for (const [i, w] of words.entries()) {
      if (w.gold.length === 0) continue;
      const pred = tagAt.get(i) ?? 'X';
      const want = w.gold.find((g) => SIX.has(g)) ?? w.gold[0];
      n++;
      if (w.gold.includes(pred)) ok++;
      for (const tag of SIX) {
        if (pred === tag && w.gold.includes(tag)) tp[tag] = (tp[tag] ?? 0) + 1;
        else if (pred === tag) fp[tag] = (fp[tag] ?? 0) + 1;
        else if (want === tag) fn[tag] = (fn[tag] ?? 0) + 1;
      }
    }
  }
  const ms = performance.now() - t0;
  const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(0)} %` : '–');
  const cells = [...SIX]
    .filter((t) => t !== 'INTJ')
    .map((t) => {
      const a = tp[t] ?? 0;
      return `${pct(a, a + (fp[t] ?? 0))} / ${pct(a, a + (fn[t] ?? 0))}`;
    });
  return { n, accuracy: pct(ok, n), cells, usPerWord: ((ms / n) * 1000).toFixed(0) };
}

const files = (process.env.UD_FILES ?? '').split(',').filter(Boolean);
if (files.length === 0) {
  console.error('UD_FILES=<lang>_….conllu,… (Universal Dependencies CoNLL-U files)');
  process.exit(2);
}
console.log(
  '| treebank | words | accuracy | NOUN P / R | VERB P / R | ADJ P / R | ADV P / R | ADP P / R | µs/word |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const file of files) {
  const language = basename(file).slice(0, 2);
  const r = score(language, sentencesOf(readFileSync(file, 'utf8')));
  console.log(`| ${basename(file)} | ${r.n} | ${r.accuracy} | ${r.cells.join(' | ')} | ${r.usPerWord} |`);
}
