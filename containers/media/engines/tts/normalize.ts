/**
 * @module containers/media/engines/tts/normalize
 * Text as it should be spoken: currency, percentages, times, dates, ordinals, years, decimals,
 * cardinals, common abbreviations and symbols become words before phonemisation. espeak-ng
 * alone reads "$1,234.56" as "dollar one thousand two hundred thirty four point five six" and
 * "2024" as "two thousand twenty four"; neural voices read whatever phonemes they are given.
 * Pure and line-preserving (newlines mark paragraphs for the sentence splitter).
 */
import { cardinal, decimal, digitByDigit, ordinal, year } from './numbers.js';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const MONTH_ABBR: Record<string, string> = Object.fromEntries(
  MONTHS.map((m) => [m.slice(0, 3), m]).concat([['Sept', 'September']]),
);
const MONTH_RE = `(?:${MONTHS.join('|')}|(?:${Object.keys(MONTH_ABBR).join('|')})\\.?)`;

/** Abbreviations expanded everywhere (case-sensitive; the period is part of the match). */
const ABBREVIATIONS: Array<[RegExp, string]> = [
  [/\bDr\.(?=\s|$)/g, 'Doctor'],
  [/\bMrs\.(?=\s|$)/g, 'Missus'],
  [/\bMr\.(?=\s|$)/g, 'Mister'],
  [/\bMs\.(?=\s|$)/g, 'Miz'],
  // British style, no period, before a name: "Mr Smith", "Dr Lee".
  [/\bDr(?=\s+[A-Z])/g, 'Doctor'],
  [/\bMrs(?=\s+[A-Z])/g, 'Missus'],
  [/\bMr(?=\s+[A-Z])/g, 'Mister'],
  [/\bProf\.(?=\s|$)/g, 'Professor'],
  [/\bMt\.(?=\s|$)/g, 'Mount'],
  [/\bSt\.(?=\s+[A-Z])/g, 'Saint'], // "St. Louis"; "Main St." (no capital after) is a street
  // After a name or an address the period may also end the sentence: kept there, so the
  // sentence splitter still sees the end ("on Elm Rd. Then" is two sentences, "Rd. for" is one).
  [/\bJr\.(?=\s*$|\s+[A-Z])/gm, 'Junior.'],
  [/\bSr\.(?=\s*$|\s+[A-Z])/gm, 'Senior.'],
  [/\bAve\.(?=\s*$|\s+[A-Z])/gm, 'Avenue.'],
  [/\bRd\.(?=\s*$|\s+[A-Z])/gm, 'Road.'],
  [/\bSt\.(?=\s*$)/gm, 'Street.'],
  [/\bJr\.(?=\s|$)/g, 'Junior'],
  [/\bSr\.(?=\s|$)/g, 'Senior'],
  [/\bAve\.(?=\s|$)/g, 'Avenue'],
  [/\bRd\.(?=\s|$)/g, 'Road'],
  [/\bSt\.(?=\s|$)/g, 'Street'],
  [/\be\.g\.(?=[\s,]|$)/gi, 'for example'],
  [/\bi\.e\.(?=[\s,]|$)/gi, 'that is'],
  [/\betc\.(?=(\s+[a-z]))/g, 'et cetera'], // mid-sentence: the period is not a sentence end
  [/\betc\.(?=\s|$)/g, 'et cetera.'],
  [/\bvs\.?(?=\s)/g, 'versus'],
  [/\bapprox\.(?=\s)/g, 'approximately'],
  [/\bNo\.(?=\s*\d)/g, 'number'],
  [/\bU\.S\.A?\.(?=\s+[a-z])/g, 'U S'],
  [/\bU\.S\.A?\.(?=\s|$)/g, 'U S.'],
  [/\ba\.m\.(?=\s+[a-z])/gi, 'a m'],
  [/\bp\.m\.(?=\s+[a-z])/gi, 'p m'],
  [/\ba\.m\.(?=\s|$)/gi, 'a m.'],
  [/\bp\.m\.(?=\s|$)/gi, 'p m.'],
];

const CURRENCY: Record<string, [string, string, string, string]> = {
  // symbol: singular, plural, minor singular, minor plural
  $: ['dollar', 'dollars', 'cent', 'cents'],
  '€': ['euro', 'euros', 'cent', 'cents'],
  '£': ['pound', 'pounds', 'penny', 'pence'],
};
const SCALE_WORDS: Record<string, string> = {
  k: 'thousand',
  m: 'million',
  mn: 'million',
  b: 'billion',
  bn: 'billion',
  thousand: 'thousand',
  million: 'million',
  billion: 'billion',
  trillion: 'trillion',
};

const UNITS: Record<string, [string, string]> = {
  km: ['kilometer', 'kilometers'],
  kg: ['kilogram', 'kilograms'],
  cm: ['centimeter', 'centimeters'],
  mm: ['millimeter', 'millimeters'],
  mi: ['mile', 'miles'],
  ft: ['foot', 'feet'],
  lb: ['pound', 'pounds'],
  lbs: ['pound', 'pounds'],
  mph: ['mile per hour', 'miles per hour'],
  'km/h': ['kilometer per hour', 'kilometers per hour'],
  GB: ['gigabyte', 'gigabytes'],
  MB: ['megabyte', 'megabytes'],
  ms: ['millisecond', 'milliseconds'],
  '°C': ['degree Celsius', 'degrees Celsius'],
  '°F': ['degree Fahrenheit', 'degrees Fahrenheit'],
  g: ['gram', 'grams'],
  mg: ['milligram', 'milligrams'],
  ml: ['milliliter', 'milliliters'],
  mL: ['milliliter', 'milliliters'],
  L: ['liter', 'liters'],
  oz: ['ounce', 'ounces'],
  min: ['minute', 'minutes'],
  hr: ['hour', 'hours'],
  hrs: ['hour', 'hours'],
  yd: ['yard', 'yards'],
  TB: ['terabyte', 'terabytes'],
  KB: ['kilobyte', 'kilobytes'],
  Hz: ['hertz', 'hertz'],
  kHz: ['kilohertz', 'kilohertz'],
  MHz: ['megahertz', 'megahertz'],
  GHz: ['gigahertz', 'gigahertz'],
};
/** Unit symbols after a number, longest first ("mph" before "m…"); "m" and "s" are left alone: meters or million, seconds or a plural. */
const UNIT_RE = new RegExp(
  `(-?\\d[\\d,]*(?:\\.\\d+)?)\\s?(${Object.keys(UNITS)
    .sort((a, b) => b.length - a.length)
    .map((u) => u.replace('/', '\\/'))
    .join('|')})(?![\\p{L}\\p{N}])`,
  'gu',
);

const stripCommas = (s: string) => s.replace(/,/g, '');

/** A number as read in running text: decimals, thousands separators, 4-digit years. */
function readNumber(raw: string): string {
  const s = stripCommas(raw);
  if (s.includes('.')) return decimal(s);
  if (!raw.includes(',') && /^\d{4}$/.test(s) && Number(s) >= 1100 && Number(s) <= 2099)
    return year(Number(s));
  if (/^0\d+$/.test(s)) return digitByDigit(s); // "007", zip-like codes
  return cardinal(s);
}

function money(symbol: string, amount: string, scale: string | undefined): string {
  const [one, many, minorOne, minorMany] = CURRENCY[symbol];
  const s = stripCommas(amount);
  const scaleWord = scale ? SCALE_WORDS[scale.toLowerCase()] : undefined;
  if (scaleWord) return `${s.includes('.') ? decimal(s) : cardinal(s)} ${scaleWord} ${many}`;
  const [whole, frac = ''] = s.split('.');
  const units = Number(whole || '0');
  const parts: string[] = [];
  if (units > 0 || !frac) parts.push(`${cardinal(whole || '0')} ${units === 1 ? one : many}`);
  if (frac.length === 2 && Number(frac) > 0)
    parts.push(`${cardinal(Number(frac))} ${Number(frac) === 1 ? minorOne : minorMany}`);
  else if (frac && frac.length !== 2) return `${decimal(s)} ${many}`;
  return parts.join(' and ');
}

function clock(h: string, m: string, meridiem: string | undefined): string {
  const hour = cardinal(Number(h));
  const mm = Number(m);
  const minutes =
    mm === 0 ? (meridiem ? '' : " o'clock") : mm < 10 ? ` oh ${cardinal(mm)}` : ` ${cardinal(mm)}`;
  return `${hour}${minutes}${meridiem ? ` ${meridiem[0].toLowerCase()} m` : ''}`;
}

const monthName = (m: string) => MONTH_ABBR[m.replace('.', '')] ?? m;

function date(month: number, day: number, yr?: string): string {
  const name = MONTHS[month - 1];
  return `${name} ${ordinal(day)}${yr ? `, ${year(Number(yr))}` : ''}`;
}

/**
 * Pure: rewrites `text` so that every number, symbol and common abbreviation is a word.
 * @example normalizeText('Dr. Smith paid $1,234.56 on 3/15/2024.')
 * // 'Doctor Smith paid one thousand two hundred thirty-four dollars and fifty-six cents on March fifteenth, twenty twenty-four.'
 */
export function normalizeText(text: string): string {
  let t = text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\u2026/g, '...')
    .replace(/(\d)\s*[\u2013\u2014]\s*(?=\d)/g, '$1 to ') // 10–20
    .replace(/\s*[\u2013\u2014]\s*/g, ', ') // a dash between words is a pause
    .replace(/[ \t\u00a0]+/g, ' ');

  for (const [re, words] of ABBREVIATIONS) t = t.replace(re, words);

  // Dates before times and plain numbers: their digits mean something else.
  t = t.replace(/\b(\d{4})-(\d{2})-(\d{2})\b/g, (all, y, m, d) =>
    Number(m) >= 1 && Number(m) <= 12 && Number(d) >= 1 && Number(d) <= 31
      ? date(Number(m), Number(d), y)
      : all,
  );
  t = t.replace(/\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g, (all, m, d, y) =>
    Number(m) >= 1 && Number(m) <= 12 && Number(d) >= 1 && Number(d) <= 31
      ? date(Number(m), Number(d), y)
      : all,
  );
  t = t.replace(
    new RegExp(`\\b(${MONTH_RE})\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4})\\b)?`, 'g'),
    (_all, m: string, d: string, y?: string) =>
      `${monthName(m)} ${ordinal(Number(d))}${y ? `, ${year(Number(y))}` : ''}`,
  );
  t = t.replace(
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(${MONTH_RE})(?:,?\\s+(\\d{4})\\b)?`, 'g'),
    (_all, d: string, m: string, y?: string) =>
      `the ${ordinal(Number(d))} of ${monthName(m)}${y ? `, ${year(Number(y))}` : ''}`,
  );
  t = t.replace(
    new RegExp(`\\b(${MONTH_RE})\\s+(\\d{4})\\b`, 'g'),
    (_all, m: string, y: string) => `${monthName(m)} ${year(Number(y))}`,
  );

  // Times: 10:30, 9:05 pm, 7 a m (after the abbreviation pass).
  // The period after "am"/"pm" is left alone: it ends the sentence ("at 8 pm. Bring a coat.").
  t = t.replace(/\b(\d{1,2}):(\d{2})(?:\s*([ap])\s?\.?\s?m\b)?/gi, (all, h, m, ap?: string) =>
    Number(h) < 24 && Number(m) < 60 ? clock(h, m, ap && `${ap}m`) : all,
  );
  t = t.replace(
    /\b(\d{1,2})\s*([ap])\.?m\b/gi,
    (_all, h, ap: string) => `${cardinal(Number(h))} ${ap.toLowerCase()} m`,
  );

  // Money, percent, units.
  t = t.replace(
    /([$€£])\s?(\d[\d,]*(?:\.\d+)?)(?:\s?(thousand|million|billion|trillion|[kKmMbB]n?)\b)?/g,
    (_all, sym: string, amount: string, scale?: string) => money(sym, amount, scale),
  );
  t = t.replace(/(\d[\d,]*(?:\.\d+)?)\s?%/g, (_all, n: string) => `${readNumber(n)} percent`);
  t = t.replace(UNIT_RE, (_all, n: string, unit: string) => {
    const [one, many] = UNITS[unit];
    return `${n} ${stripCommas(n) === '1' ? one : many}`;
  });

  // Ordinals, decades, ranges, signs.
  t = t.replace(/\b(\d+)(st|nd|rd|th)\b/gi, (_all, n: string) => ordinal(n));
  t = t.replace(
    /\b(1[1-9]|20)(\d)0s\b/g,
    (_all, c: string, d: string) =>
      `${year(Number(`${c}${d}0`)).replace(/(\w+)$/, (w) => (w.endsWith('y') ? `${w.slice(0, -1)}ies` : `${w}s`))}`,
  );
  t = t.replace(/\b'(\d)0s\b/g, (_all, d: string) => `${cardinal(Number(d) * 10).replace(/y$/, 'ies')}`);
  t = t.replace(/(\d)\s?-\s?(?=\d)/g, '$1 to ');
  t = t.replace(/(^|[\s(])[-\u2212](?=\d)/g, '$1minus ');
  t = t.replace(/(^|[\s(])\+(?=\d)/g, '$1plus ');
  t = t.replace(/#(?=\d)/g, 'number ');

  // Remaining numbers.
  t = t.replace(/\d[\d,]*(?:\.\d+)?/g, (n) => {
    const trailingComma = n.endsWith(',') ? ',' : '';
    const body = trailingComma ? n.slice(0, -1) : n;
    // "1,2,3" is a list, not a thousands number.
    if (/,(\d{1,2}|\d{4,})(,|$)/.test(body))
      return body.split(',').map(readNumber).join(', ') + trailingComma;
    return readNumber(body) + trailingComma;
  });

  // Symbols.
  t = t
    .replace(/\s*&\s*/g, ' and ')
    .replace(/\band\/or\b/g, 'and or')
    .replace(/\s*@\s*/g, ' at ')
    .replace(/\s+=\s+/g, ' equals ')
    .replace(/\s+\+\s+/g, ' plus ')
    .replace(/%/g, ' percent')
    .replace(/([a-z])\/([a-z])/gi, '$1 or $2')
    .replace(/[*_~^|<>{}[\]\\`]/g, ' ');

  return t
    .split('\n')
    .map((line) =>
      line
        .replace(/ {2,}/g, ' ')
        .replace(/ ([,.;:!?])/g, '$1')
        .trim(),
    )
    .join('\n');
}
