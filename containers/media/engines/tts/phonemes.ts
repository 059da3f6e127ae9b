/**
 * @module containers/media/engines/tts/phonemes
 * Text → Piper phoneme ids, the way Piper's own phonemiser (piper-phonemize) builds them:
 * espeak-ng IPA per clause, the clause's punctuation kept as a phoneme (`,` followed by a space
 * between clauses, the sentence's final mark at the end), codepoints after NFD looked up in the
 * voice's `phoneme_id_map`, and ids laid out as `^ _ p1 _ p2 _ … pn _ $` (BOS, pad after every
 * phoneme, EOS). The voices were trained on exactly that layout, so deviating from it (dropping
 * the punctuation or the pads) audibly flattens the prosody.
 */
import { spawnMedia } from '../../core/ffmpeg.js';
import { ESPEAK_BIN } from './espeak.js';
import { TtsError } from './errors.js';

export type PhonemeIdMap = Record<string, number[]>;

const BOS = '^';
const EOS = '$';
const PAD = '_';

/**
 * Pure: one sentence's clauses with the mark that ends each. The last gets '.' if it has none
 * (Piper would leave it bare): the voice then ends on a falling, fully released final phoneme
 * instead of trailing off mid-word.
 */
export function clauses(sentence: string): Array<{ text: string; mark: string }> {
  const out: Array<{ text: string; mark: string }> = [];
  const re = /([^,;:.!?]+)([,;:.!?]*)/g;
  for (const m of sentence.matchAll(re)) {
    const text = m[1].replace(/["()[\]]/g, ' ').trim();
    if (!/[\p{L}\p{N}]/u.test(text)) continue;
    const marks = m[2];
    // Piper keeps one mark per clause: the strongest one written.
    const mark = marks.includes('?')
      ? '?'
      : marks.includes('!')
        ? '!'
        : marks.includes('.')
          ? '.'
          : marks.slice(0, 1);
    out.push({ text, mark });
  }
  if (out.length && !/[.!?]/.test(out.at(-1)!.mark)) out.at(-1)!.mark = '.';
  return out;
}

/** espeak-ng's IPA for one clause (its output lines are sub-clauses: joined by a space). */
export async function espeakIpa(text: string, voice = 'en-us', signal?: AbortSignal): Promise<string> {
  using proc = spawnMedia(ESPEAK_BIN, ['-q', '--ipa', '-v', voice], signal);
  const chunks: Buffer[] = [];
  proc.child.stdout.on('data', (c: Buffer) => chunks.push(c));
  proc.child.stdin.end(text, 'utf8');
  try {
    await proc.done;
  } catch (err) {
    throw new TtsError('tts_failed', `espeak-ng phonemisation failed: ${(err as Error).message}`, 500, {
      cause: err,
    });
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\([a-z-]+\)/g, '') // language-switch markers such as "(fr)"
    .split('\n')
    .map((l: string) => l.trim())
    .filter(Boolean)
    .join(' ');
}

/**
 * Pure: Debian's espeak-ng 1.51 IPA brought to the 1.52 output the Piper voices were trained on
 * (checked against piper-tts 1.8's bundled espeak-ng on ~50 words and sentences): the en-us
 * "or" vowel became `ɔːɹ` (was `oːɹ`), and a `ʲ` glide follows i/ɪ before a vowel, also across a
 * word boundary ("very old" vˈɛɹiʲ ˈoʊld, "video" vˈɪdɪʲoʊ). Both matter: the voice has learnt
 * `ɔː` and `ʲ` in those places, and its pronunciation of what it never saw is less sure.
 */
export function espeak152(ipa: string): string {
  // Not the ɪ of a diphthong (aɪ, eɪ, oɪ), nor a plain i straight before ə ("million" stays mˈɪliən).
  return ipa
    .replace(/oːɹ/g, 'ɔːɹ')
    .replace(
      /(?<![aeoɔ])([iɪ]ː?)(?=([ ˈˌ]*)([aeiouɑɐəɛɪʊʌɔæɜɚ]))/g,
      (m, v: string, gap: string, next: string) => (v === 'i' && gap === '' && next === 'ə' ? m : `${v}ʲ`),
    );
}

/** The phoneme string of a sentence: clause IPA + mark (+ space between clauses). */
export async function sentencePhonemes(
  sentence: string,
  voice = 'en-us',
  signal?: AbortSignal,
): Promise<string> {
  const parts = clauses(sentence);
  const ipa = await Promise.all(parts.map((c) => espeakIpa(c.text, voice, signal)));
  return parts.map((c, i) => `${espeak152(ipa[i])}${c.mark}`).join(' ');
}

/**
 * Pure: ids for one sentence's phonemes. Codepoints missing from the map are skipped (Piper
 * does the same and reports them); they are returned so callers can log them.
 */
export function phonemeIds(phonemes: string, map: PhonemeIdMap): { ids: number[]; missing: string[] } {
  const pad = map[PAD]?.[0];
  const bos = map[BOS]?.[0];
  const eos = map[EOS]?.[0];
  if (pad === undefined || bos === undefined || eos === undefined)
    throw new TtsError('tts_voice_invalid', 'the voice config has no ^ $ _ phoneme ids', 500);
  const ids = [bos, pad];
  const missing: string[] = [];
  for (const ch of phonemes.normalize('NFD')) {
    const id = map[ch];
    if (!id) {
      missing.push(ch);
      continue;
    }
    ids.push(...id, pad);
  }
  ids.push(eos);
  return { ids, missing };
}
