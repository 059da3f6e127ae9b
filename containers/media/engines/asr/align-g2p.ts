/**
 * @module containers/media/engines/asr/align-g2p
 * Pronunciations for words no dictionary has (numbers, names): espeak-ng (already in the image
 * for speech synthesis) spells them in IPA (`-q --ipa`), mapped here to the decoder's ARPAbet
 * phones. "42" becomes F AO R T IY T UW: numbers are read the way espeak-ng says them, which is
 * exactly right for synthesized speech and close for people.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** espeak-ng answers in milliseconds; a hung process must not hold the alignment queue. */
const ESPEAK_TIMEOUT_MS = 5_000;

/** IPA (as espeak-ng en-us writes it) → ARPAbet; longest symbols are matched first. */
const IPA_TO_ARPABET: Readonly<Record<string, string>> = {
  aɪ: 'AY',
  aʊ: 'AW',
  eɪ: 'EY',
  oʊ: 'OW',
  əʊ: 'OW',
  ɔɪ: 'OY',
  tʃ: 'CH',
  dʒ: 'JH',
  ɑː: 'AA',
  ɑ: 'AA',
  ɒ: 'AA',
  a: 'AA',
  æ: 'AE',
  ɐ: 'AH',
  ʌ: 'AH',
  ə: 'AH',
  ɚ: 'ER',
  ɜː: 'ER',
  ɜ: 'ER',
  ɛ: 'EH',
  e: 'EH',
  ɪ: 'IH',
  ᵻ: 'IH',
  iː: 'IY',
  i: 'IY',
  ʊ: 'UH',
  uː: 'UW',
  u: 'UW',
  ɔː: 'AO',
  ɔ: 'AO',
  oː: 'AO',
  o: 'OW',
  p: 'P',
  b: 'B',
  t: 'T',
  d: 'D',
  k: 'K',
  ɡ: 'G',
  g: 'G',
  f: 'F',
  v: 'V',
  θ: 'TH',
  ð: 'DH',
  s: 'S',
  z: 'Z',
  ʃ: 'SH',
  ʒ: 'ZH',
  h: 'HH',
  x: 'HH',
  m: 'M',
  n: 'N',
  ŋ: 'NG',
  l: 'L',
  ɫ: 'L',
  ɹ: 'R',
  r: 'R',
  ɾ: 'T',
  j: 'Y',
  w: 'W',
};
const SYMBOLS = Object.keys(IPA_TO_ARPABET).sort((a, b) => b.length - a.length);

/**
 * Pure: ARPAbet phones for an espeak-ng IPA string; stress marks, length marks without a long
 * entry, syllabic marks and glottal stops are dropped. Empty when nothing maps.
 * @example ipaToArpabet('fˈoːɹɾi tˈuː') // 'F AO R T IY T UW'
 */
export function ipaToArpabet(ipa: string): string {
  const phones: string[] = [];
  const s = ipa.normalize('NFC').replace(/[ˈˌ\u0329\u032f\u200d‍ʔ\s]/g, '');
  for (let i = 0; i < s.length;) {
    const sym = SYMBOLS.find((k) => s.startsWith(k, i));
    if (!sym) {
      i++;
      continue;
    }
    const phone = IPA_TO_ARPABET[sym];
    // "ɜːɹ"/"ɚɹ": the r is already in ER.
    if (!(phone === 'R' && phones.at(-1) === 'ER')) phones.push(phone);
    i += sym.length;
  }
  return phones.join(' ');
}

/**
 * ARPAbet pronunciation of `word` from espeak-ng, or undefined when espeak-ng is missing or
 * yields nothing.
 * @example await espeakPronunciation('kowalski') // 'K AW AO L S K IY'
 */
export async function espeakPronunciation(word: string, voice = 'en-us'): Promise<string | undefined> {
  try {
    const { stdout } = await run('espeak-ng', ['-q', '--ipa', '-v', voice, word], {
      timeout: ESPEAK_TIMEOUT_MS,
    });
    return ipaToArpabet(stdout) || undefined;
  } catch {
    return undefined;
  }
}
