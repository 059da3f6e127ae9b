/**
 * @module bench/speech/spliced
 * A second disfluent test set, made so as not to tune to the one speaker of
 * ../shared/media/disfluent: every clip of ../shared/media/speech (nine recordings, other
 * speakers) gets two real hesitations spliced in at word boundaries about one third and two
 * thirds of the way through. The hesitations are cut from the disfluent clips at their
 * forced-aligned times ("um"/"uh" of 0.2-1 s), scaled to the clip's speech level and framed by
 * 0.25 s of the clip's own quietest audio. So the words and voices are real, the fillers are
 * real, but each filler is another man's voice in a splice: easier to hear than a filler in
 * flowing speech, harder than none. The reference text gets the filler word at its place.
 */
import type { TimedWord } from '../../src/contract/media.js';
import { isHesitation, normalizeWord } from '../../src/analytics/speech/tokens.js';
import { loadCorpus, type Clip } from './corpus.js';
import { loadDisfluent, referenceAlignment } from './fillers.js';

const RATE = 16_000;
const PAD_SEC = 0.25;

const rms = (x: Int16Array): number => Math.sqrt(x.reduce((s, v) => s + v * v, 0) / Math.max(1, x.length));

/** Real filler snippets from the disfluent clips, with their word. */
async function fillerSnippets(): Promise<Array<{ word: string; pcm: Int16Array }>> {
  const out: Array<{ word: string; pcm: Int16Array }> = [];
  for (const clip of await loadDisfluent()) {
    for (const w of await referenceAlignment(clip.pcm, clip.reference)) {
      const d = w.end - w.start;
      if (!isHesitation(normalizeWord(w.word)) || d < 0.2 || d > 1) continue;
      out.push({
        word: w.word,
        pcm: clip.pcm.slice(Math.floor((w.start - 0.02) * RATE), Math.ceil((w.end + 0.02) * RATE)),
      });
    }
  }
  return out;
}

/** The spliced clips (`spliced/<clip>`), deterministic. */
export async function loadSpliced(): Promise<Clip[]> {
  const snippets = await fillerSnippets();
  const clips = await loadCorpus({ withExtras: false });
  const out: Clip[] = [];
  let s = 0;
  for (const clip of clips) {
    const words: TimedWord[] = await referenceAlignment(clip.pcm, clip.reference);
    if (words.length < 4) continue;
    const level = rms(clip.pcm);
    const cuts = [Math.round(words.length / 3), Math.round((2 * words.length) / 3)];
    const parts: Int16Array[] = [];
    const text: string[] = [];
    let from = 0;
    let fromWord = 0;
    for (const k of cuts) {
      const at = Math.round(((words[k - 1].end + words[k].start) / 2) * RATE);
      const snip = snippets[s++ % snippets.length];
      const gain = level / Math.max(1, rms(snip.pcm));
      const quiet = new Int16Array(Math.round(PAD_SEC * RATE));
      parts.push(
        clip.pcm.subarray(from, at),
        quiet,
        snip.pcm.map((v) => Math.max(-32768, Math.min(32767, Math.round(v * gain)))),
        quiet,
      );
      text.push(...words.slice(fromWord, k).map((w) => w.word), snip.word);
      from = at;
      fromWord = k;
    }
    parts.push(clip.pcm.subarray(from));
    text.push(...words.slice(fromWord).map((w) => w.word));
    const pcm = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) {
      pcm.set(p, o);
      o += p.length;
    }
    out.push({ file: clip.file.replace(/^speech\//, 'spliced/'), reference: text.join(' '), pcm });
  }
  return out;
}
