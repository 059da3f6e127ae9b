/**
 * @module bench/speech/sets-build/annotation
 * The annotation files of the SPPAS samples and how their transcriptions become reference
 * transcripts: Praat TextGrid (long and short text formats, UTF-8 or UTF-16), SPPAS XRA, and the
 * cleaning of the SPPAS transcription convention down to the words said; and the count of
 * hesitations in a reference transcript, by the bench's own rule, which decides its `fluent` mark.
 */
import { isHesitationIn } from '../score.js';

export interface Interval {
  start: number;
  end: number;
  text: string;
  /** XRA: the label's alternative tags, braces stripped (`{euh|et}` gives ["euh", "et"]). */
  tags?: string[];
}

export interface Tier {
  /** TextGrid point tiers (`TextTier`) hold intervals of no length; XRA tiers are `IntervalTier`. */
  kind: 'IntervalTier' | 'TextTier';
  name: string;
  items: Interval[];
}

/** The first interval tier called `name` (any case), or undefined. */
export const findTier = (tiers: Tier[], name: string): Tier | undefined =>
  tiers.find((t) => t.kind === 'IntervalTier' && t.name.toLowerCase() === name.toLowerCase());

/**
 * Bytes of a text file to a string: UTF-16 by its BOM, else UTF-8 (BOM dropped), else Latin-1
 * (Praat writes UTF-16 when a label is not ASCII, and older SPPAS samples are Latin-1).
 */
export function decodeText(b: Buffer): string {
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) {
    const c = Buffer.from(b.subarray(2));
    c.swap16();
    return c.toString('utf16le');
  }
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return b.subarray(2).toString('utf16le');
  const s = b.toString('utf8');
  if (s.includes('\ufffd')) return b.toString('latin1');
  return s.replace(/^\ufeff/, '');
}

/**
 * Pure: the tiers of a TextGrid, long or short text format. Both are the same value sequence once
 * keys and `[n]` indices are skipped: strings, numbers and the `<exists>` flag.
 */
export function parseTextGrid(src: string): Tier[] {
  const re = /"((?:[^"]|"")*)"|\[\s*\d*\s*\]|<(exists|absent)>|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)/g;
  const vals: string[] = [];
  for (const m of src.matchAll(re)) {
    if (m[1] !== undefined) vals.push(m[1].replace(/""/g, '"'));
    else if (m[2] !== undefined) vals.push(`<${m[2]}>`);
    else if (m[3] !== undefined) vals.push(m[3]);
  }
  let i = vals.findIndex((v) => v === 'IntervalTier' || v === 'TextTier');
  const tiers: Tier[] = [];
  while (i >= 0 && i < vals.length) {
    const kind = vals[i] as Tier['kind'];
    const name = vals[i + 1];
    const n = Number(vals[i + 4]);
    i += 5;
    const items: Interval[] = [];
    for (let k = 0; k < n; k++) {
      if (kind === 'IntervalTier') {
        items.push({ start: Number(vals[i]), end: Number(vals[i + 1]), text: vals[i + 2] });
        i += 3;
      } else {
        items.push({ start: Number(vals[i]), end: Number(vals[i]), text: vals[i + 1] });
        i += 2;
      }
    }
    tiers.push({ kind, name, items });
  }
  return tiers;
}

const unXml = (s: string): string =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&');

/**
 * Pure: the tiers of a SPPAS XRA file (XML). Each annotation spans the midpoints of its
 * localisations (a point is an interval of no length); its text is its tags joined by `|`.
 */
export function parseXra(src: string): Tier[] {
  const tiers: Tier[] = [];
  for (const t of src.matchAll(/<Tier\b[^>]*\btiername="([^"]*)"[^>]*>([\s\S]*?)<\/Tier>/g)) {
    const items: Interval[] = [];
    for (const a of t[2].matchAll(/<Annotation\b[^>]*>([\s\S]*?)<\/Annotation>/g)) {
      const b = /<Begin\s+midpoint="([^"]+)"/.exec(a[1]);
      const e = /<End\s+midpoint="([^"]+)"/.exec(a[1]);
      const p = /<Point\s+midpoint="([^"]+)"/.exec(a[1]);
      const [start, end] = b && e ? [b[1], e[1]] : p ? [p[1], p[1]] : [];
      if (start === undefined) continue;
      const tags = [...a[1].matchAll(/<Tag\b[^>]*>([\s\S]*?)<\/Tag>/g)].map((m) => unXml(m[1]).trim());
      items.push({
        start: Number(start),
        end: Number(end),
        text: tags.join('|'),
        tags: tags.map((x) => x.replace(/^\{|\}$/g, '')),
      });
    }
    tiers.push({ kind: 'IntervalTier', name: unXml(t[1]), items });
  }
  return tiers;
}

/** A pause, silence or noise label of a SPPAS tier (`#`, `+`, `sil`, `dummy`, `*`, `@`, empty). */
export const isPauseLabel = (s: string): boolean => /^\s*(#|\+|sil|dummy|\*|@+|)\s*$/i.test(s);

/** Tokens that are SPPAS pause, noise, laughter or turn marks, never words. */
const MARK_RE = /^[#+*@$_\-]+$|^(?:sil|dummy|noise)$/i;

/**
 * Pure: a SPPAS orthographic transcription as the words said (the SPPAS transcription
 * convention): the IPU label prefix (`ipu_3`, `gpf_0`, `gpd_5`) dropped; `[orthography,pronunciation]`
 * → the orthography; `<a,b>` → a; `{comment}` and `{breath}` dropped; elided letters written back
 * (`i(l)` → `il`); pause (`#`, `+`), noise (`*`), laughter (`@`), turn (`__`) and `$` name marks
 * and quotes dropped; truncated word fragments (`chort-`, `L'arri-`) dropped. SPPAS tokenises at
 * apostrophes, so they are joined back: in English the clitic (`doesn t` → `doesn't`, `cellar s`
 * → `cellar's`), elsewhere an elided word and the vowel after it (`qu' elle` → `qu'elle`).
 * Empty when the interval holds no word (a pause).
 * @example cleanSppas("oui [ben,bè] i(l) m'a dit + <euh,et> p- j'ai", 'fr') // "oui ben il m'a dit euh j'ai"
 */
export function cleanSppas(raw: string, language: string): string {
  let t = raw.replace(/\s+/g, ' ').trim();
  t = t.replace(/^(?:ipu|gpf|gpd)_\d+(?=\s|$)\s*/i, '');
  t = t.replace(/\[([^[\],]*),[^[\]]*\]/g, '$1');
  t = t.replace(/<([^<>,]*),[^<>]*>/g, '$1');
  t = t.replace(/\{[^{}]*\}/g, ' ');
  t = t.replace(/\(([^()\s]*)\)/g, '$1');
  const words = t
    .split(/[\s"]+/)
    .map((w) => w.replace(/\$/g, ''))
    .filter((w) => w && !MARK_RE.test(w))
    .filter((w) => !/[\p{L}\p{N}]-$/u.test(w.replace(/[.,;:!?]+$/, '')));
  if (language !== 'en')
    return words
      .join(' ')
      .replace(/(\p{L}['’]) (?=[aeiouyhàâäéèêëîïôöùûüœæ])/giu, '$1')
      .trim();
  const out: string[] = [];
  for (const w of words) {
    if (out.length && /^(s|t|ll|re|ve|d|m)$/i.test(w) && /[a-z]$/i.test(out[out.length - 1]))
      out[out.length - 1] += `'${w}`;
    else out.push(w);
  }
  return out.join(' ');
}

/** The hesitation sounds of a reference transcript, as bench/speech/score.ts counts them. */
export const countHesitations = (text: string, language: string): number =>
  text.split(/\s+/).filter((w) => isHesitationIn(w, language)).length;
