/**
 * @module containers/media/engines/render/align
 * Caption word times by forced alignment: the speech file is decoded to 16 kHz mono PCM and
 * the known text (the description the speech was synthesized from) is aligned to it with
 * SoundSwallower (`asr/align.ts`, in the aligner's own process). What is aligned is the text as the voice spoke it
 * (`tts/normalize.ts`: "$1,234" is "one thousand two hundred thirty-four dollars"), and each
 * caption word takes the span of the spoken tokens it became. Cues keep the text's own words
 * and punctuation; the aligner's normalised tokens only carry the times.
 */
import { alignText, alignTokens } from '../asr/align.js';
import { ASR_SAMPLE_RATE_HZ } from '../asr/pcm.js';
import { spawnFfmpeg } from '../../core/ffmpeg.js';
import type { CaptionWord } from './captions.js';
import { normalizeText } from '../tts/normalize.js';

/** Longest speech aligned, s: the decoder serves one search at a time; phrase-by-phrase alignment
 * runs at ~0.05–0.1× real time on synthesized speech, slower when phrases must be re-planned. */
export const MAX_ALIGN_SEC = 600;

/** Decodes any audio file to 16 kHz mono s16 samples, its first `maxSec` seconds at most. */
export async function decodePcm16k(
  path: string,
  signal?: AbortSignal,
  maxSec = MAX_ALIGN_SEC,
): Promise<Int16Array> {
  using proc = spawnFfmpeg(
    [
      '-i',
      path,
      '-vn',
      '-ac',
      '1',
      '-ar',
      String(ASR_SAMPLE_RATE_HZ),
      '-t',
      String(maxSec),
      '-f',
      's16le',
      'pipe:1',
    ],
    signal,
  );
  proc.child.stdin.end();
  const chunks: Buffer[] = [];
  proc.child.stdout.on('data', (c: Buffer) => chunks.push(c));
  await proc.done;
  const bytes = Buffer.concat(chunks);
  return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + (bytes.byteLength & ~1)));
}

/**
 * Pure: gives each whitespace-separated word of `text` the span of its aligned tokens
 * ("don't" is one token, "well-known" two, "—" none: it takes the previous word's end).
 */
export function wordsFromTokens(text: string, tokens: Array<{ start: number; end: number }>): CaptionWord[] {
  const out: CaptionWord[] = [];
  let k = 0;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const n = alignTokens(word).length;
    const prevEnd = out.at(-1)?.end ?? 0;
    if (n === 0 || k >= tokens.length) {
      out.push({ word, start: prevEnd, end: prevEnd });
      continue;
    }
    const span = tokens.slice(k, k + n);
    k += n;
    out.push({ word, start: span[0].start, end: span.at(-1)!.end });
  }
  return out;
}

/** How far past the expected place an unchanged word is looked for in the spoken tokens. */
const ANCHOR_WINDOW_TOKENS = 24;

/**
 * Pure: the spoken form of `text` (its normalisation) and, per whitespace word of `text`, the
 * half-open range of spoken tokens it became. Words the normaliser leaves alone anchor the
 * mapping; the words between two anchors share the spoken tokens between them, in proportion
 * to what each becomes on its own.
 * @example spokenSpans('Pay $5 now') // { spoken: 'Pay five dollars now', spans: [[0,1],[1,3],[3,4]] }
 */
export function spokenSpans(text: string): { spoken: string; spans: Array<[number, number]> } {
  const words = text.split(/\s+/).filter(Boolean);
  const own = words.map((w) => alignTokens(w));
  const spoken = normalizeText(text);
  const n = alignTokens(spoken);
  const expected = words.map((w) => alignTokens(normalizeText(w)).length);
  const at = (toks: string[], p: number) => toks.length > 0 && toks.every((t, k) => n[p + k] === t);
  const spans: Array<[number, number]> = [];
  let j = 0;
  for (let i = 0; i < words.length;) {
    if (at(own[i], j)) {
      spans.push([j, j + own[i].length]);
      j += own[i].length;
      i++;
      continue;
    }
    // A changed word (or a run of them): find the next unchanged word nearest its expected place.
    let k = i + 1;
    let p = -1;
    for (; k < words.length && p < 0; k++) {
      if (!own[k].length) continue;
      const want = j + expected.slice(i, k).reduce((a, b) => a + b, 0);
      for (let d = 0; d <= ANCHOR_WINDOW_TOKENS && p < 0; d++) {
        if (want - d >= j && at(own[k], want - d)) p = want - d;
        else if (at(own[k], want + d)) p = want + d;
      }
    }
    const end = p < 0 ? words.length : k - 1;
    const stop = p < 0 ? n.length : p;
    const weights = expected.slice(i, end).map((e) => Math.max(e, 0));
    const total = weights.reduce((a, b) => a + b, 0) || 1;
    let acc = 0;
    for (let g = i; g < end; g++) {
      const from = j + Math.round(((stop - j) * acc) / total);
      acc += weights[g - i];
      spans.push([from, j + Math.round(((stop - j) * acc) / total)]);
    }
    j = stop;
    i = end;
  }
  return { spoken, spans };
}

/** Pure: caption words timed by the spoken tokens they map to (`spokenSpans`). */
export function wordsFromSpans(
  text: string,
  spans: Array<[number, number]>,
  tokens: Array<{ start: number; end: number }>,
): CaptionWord[] {
  const out: CaptionWord[] = [];
  text
    .split(/\s+/)
    .filter(Boolean)
    .forEach((word, i) => {
      const [a, b] = spans[i] ?? [0, 0];
      const prevEnd = out.at(-1)?.end ?? 0;
      if (b <= a || a >= tokens.length) out.push({ word, start: prevEnd, end: prevEnd });
      else out.push({ word, start: tokens[a].start, end: tokens[Math.min(b, tokens.length) - 1].end });
    });
  return out;
}

/**
 * Word times of `text` as spoken in `audioPath`. Throws when the aligner fails (the render
 * then falls back to an even split and says so in its report).
 * @example const words = await alignCaptions('speech.wav', 'Hello there, world.');
 */
export async function alignCaptions(
  audioPath: string,
  text: string,
  signal?: AbortSignal,
): Promise<CaptionWord[]> {
  const pcm = await decodePcm16k(audioPath, signal);
  const { spoken, spans } = spokenSpans(text);
  const tokens = await alignText(pcm, spoken, signal);
  return wordsFromSpans(text, spans, tokens);
}
