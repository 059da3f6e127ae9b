/**
 * @module containers/media/engines/tts/numbers
 * English number words for the text normaliser: cardinals, ordinals, years, decimals and
 * digit strings. Pure.
 */

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES = ['', 'thousand', 'million', 'billion', 'trillion'];

/** Cardinal words below 1000 ("three hundred forty-two"); '' for 0. */
function underThousand(n: number): string {
  const parts: string[] = [];
  if (n >= 100) {
    parts.push(`${ONES[Math.floor(n / 100)]} hundred`);
    n %= 100;
  }
  if (n >= 20) parts.push(TENS[Math.floor(n / 10)] + (n % 10 ? `-${ONES[n % 10]}` : ''));
  else if (n > 0) parts.push(ONES[n]);
  return parts.join(' ');
}

/**
 * Pure: a non-negative integer (up to the trillions) in words; longer numbers are read digit by digit.
 * @example cardinal(1234) // 'one thousand two hundred thirty-four'
 */
export function cardinal(n: number | string): string {
  const digits = String(n).replace(/^0+(?=\d)/, '');
  if (!/^\d+$/.test(digits)) throw new RangeError(`cardinal: not a non-negative integer: ${n}`);
  if (digits.length > 15) return digitByDigit(digits);
  let value = Number(digits);
  if (value === 0) return 'zero';
  const groups: string[] = [];
  for (let scale = 0; value > 0; scale++, value = Math.floor(value / 1000)) {
    const group = value % 1000;
    if (group) groups.unshift(underThousand(group) + (SCALES[scale] ? ` ${SCALES[scale]}` : ''));
  }
  return groups.join(' ');
}

const ORDINAL_WORDS: Record<string, string> = {
  one: 'first',
  two: 'second',
  three: 'third',
  five: 'fifth',
  eight: 'eighth',
  nine: 'ninth',
  twelve: 'twelfth',
};

/** Pure: "twenty-first", "one hundredth". */
export function ordinal(n: number | string): string {
  const words = cardinal(n);
  return words.replace(/([a-z]+)$/, (last) => {
    if (ORDINAL_WORDS[last]) return ORDINAL_WORDS[last];
    if (last.endsWith('y')) return `${last.slice(0, -1)}ieth`;
    return `${last}th`;
  });
}

/**
 * Pure: a four-digit year as people say it: 1984 "nineteen eighty-four", 2005 "two thousand
 * five", 2024 "twenty twenty-four", 1900 "nineteen hundred".
 */
export function year(n: number): string {
  if (n < 1000 || n > 9999) return cardinal(n);
  const hi = Math.floor(n / 100);
  const lo = n % 100;
  if (lo === 0) return n % 1000 === 0 ? cardinal(n) : `${cardinal(hi)} hundred`;
  if (hi % 10 === 0 && lo < 10) return cardinal(n); // 2005 → two thousand five
  return `${cardinal(hi)} ${lo < 10 ? `oh ${ONES[lo]}` : cardinal(lo)}`;
}

/** Pure: each digit as a word ("four two"). */
export function digitByDigit(digits: string): string {
  return [...digits].map((d) => ONES[Number(d)]).join(' ');
}

/** Pure: "3.14" → "three point one four"; "0.5" → "zero point five". */
export function decimal(text: string): string {
  const [whole, frac] = text.split('.');
  return frac ? `${cardinal(whole || '0')} point ${digitByDigit(frac)}` : cardinal(whole);
}
