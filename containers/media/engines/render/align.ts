/**
 * @module containers/media/engines/render/align
 * Caption word times by forced alignment: the speech file is decoded to 16 kHz mono PCM and
 * the known text (the description the speech was synthesized from) is aligned to it with
 * soundswallower (`asr/align.ts`). Cues keep the text's own words and punctuation; the
 * aligner's normalised tokens only carry the times.
 */
import { alignText, alignTokens } from '../asr/align.js';
import { ASR_SAMPLE_RATE_HZ } from '../asr/pcm.js';
import { spawnFfmpeg } from '../../src/ffmpeg.js';
import type { CaptionWord } from './captions.js';

/** Longest speech aligned, s: the WebAssembly decoder is synchronous; phrase-by-phrase alignment
 * runs at ~0.05–0.1× real time on synthesized speech, slower when phrases must be re-planned. */
export const MAX_ALIGN_SEC = 600;

/** Decodes any audio file to 16 kHz mono s16 samples. */
async function decodePcm16k(path: string, signal?: AbortSignal): Promise<Int16Array> {
  using proc = spawnFfmpeg(['-i', path, '-vn', '-ac', '1', '-ar', String(ASR_SAMPLE_RATE_HZ), '-t', String(MAX_ALIGN_SEC), '-f', 's16le', 'pipe:1'], signal);
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

/**
 * Word times of `text` as spoken in `audioPath`. Throws when the aligner fails (the render
 * then falls back to an even split and says so in its report).
 * @example const words = await alignCaptions('speech.wav', 'Hello there, world.');
 */
export async function alignCaptions(audioPath: string, text: string, signal?: AbortSignal): Promise<CaptionWord[]> {
  const pcm = await decodePcm16k(audioPath, signal);
  const tokens = await alignText(pcm, text);
  return wordsFromTokens(text, tokens);
}
