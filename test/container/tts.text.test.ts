import { describe, expect, it } from 'vitest';
import { spokenSpans, wordsFromSpans } from '../../containers/media/engines/render/align.js';
import { alignTokens } from '../../containers/media/engines/asr/align-tokens.js';
import { normalizeText } from '../../containers/media/engines/tts/normalize.js';
import { cardinal, ordinal, year } from '../../containers/media/engines/tts/numbers.js';
import { clauses, espeak152, phonemeIds } from '../../containers/media/engines/tts/phonemes.js';
import { PARAGRAPH_PAUSE_SEC, splitSpeech } from '../../containers/media/engines/tts/sentences.js';
import {
  pcmToWav,
  parseWav,
  readProvenance,
  withProvenance,
} from '../../containers/media/engines/tts/wav.js';

// Pure code of the voice: what text becomes before it is spoken, and how it is laid out for the model.

describe('number words', () => {
  it('should read cardinals, ordinals and years as people say them', () => {
    expect(cardinal(0)).toBe('zero');
    expect(cardinal(1234)).toBe('one thousand two hundred thirty-four');
    expect(cardinal(2_000_019)).toBe('two million nineteen');
    expect(ordinal(21)).toBe('twenty-first');
    expect(ordinal(12)).toBe('twelfth');
    expect(ordinal(40)).toBe('fortieth');
    expect(ordinal(100)).toBe('one hundredth');
    expect(year(1984)).toBe('nineteen eighty-four');
    expect(year(2005)).toBe('two thousand five');
    expect(year(2024)).toBe('twenty twenty-four');
    expect(year(1905)).toBe('nineteen oh five');
    expect(year(1900)).toBe('nineteen hundred');
    expect(year(2000)).toBe('two thousand');
  });
});

describe('normalizeText', () => {
  const cases: Array<[string, string]> = [
    ['It costs $1,234.56.', 'It costs one thousand two hundred thirty-four dollars and fifty-six cents.'],
    ['Only $1 and 1 cent: $0.01.', 'Only one dollar and one cent: one cent.'],
    ['A $5 million deal, €20 or £1.', 'A five million dollars deal, twenty euros or one pound.'],
    ['Sales rose 12.5% and 3 %.', 'Sales rose twelve point five percent and three percent.'],
    ['Pi is 3.14.', 'Pi is three point one four.'],
    [
      'We met at 10:30 am, left at 9:05 PM and slept at 11:00.',
      "We met at ten thirty a m, left at nine oh five p m and slept at eleven o'clock.",
    ],
    ['Dinner at 7 p.m. tonight.', 'Dinner at seven p m tonight.'],
    // A period after am/pm or an address ends the sentence too: the sentence splitter must see it.
    [
      'It starts at 8 pm. We open at 9:00 am. Bring a coat.',
      'It starts at eight p m. We open at nine a m. Bring a coat.',
    ],
    [
      'Drive on Elm Rd. Then turn onto 5th Ave. for a mile, past Main St.',
      'Drive on Elm Road. Then turn onto fifth Avenue for a mile, past Main Street.',
    ],
    [
      'Born on March 3rd, 2024 and on 12/31/1999.',
      'Born on March third, twenty twenty-four and on December thirty-first, nineteen ninety-nine.',
    ],
    ['Due 2026-12-24.', 'Due December twenty-fourth, twenty twenty-six.'],
    ['On 4 July 1776 they met.', 'On the fourth of July, seventeen seventy-six they met.'],
    [
      'The 21st century, the 1990s and the 2nd floor.',
      'The twenty-first century, the nineteen nineties and the second floor.',
    ],
    [
      'Dr. Smith and Mr. Jones met Mrs. Lee on Main St. in St. Louis.',
      'Doctor Smith and Mister Jones met Missus Lee on Main Street in Saint Louis.',
    ],
    ['Mr Fitzgerald and Dr Lee, drivers.', 'Mister Fitzgerald and Doctor Lee, drivers.'],
    [
      'Fruit, e.g. apples, i.e. food, etc. are fine.',
      'Fruit, for example apples, that is food, et cetera are fine.',
    ],
    [
      'Tom & Jerry scored 10-20, No. 5 was #1.',
      'Tom and Jerry scored ten to twenty, number five was number one.',
    ],
    [
      'It was -5°C, then 3 km and 1 kg.',
      'It was minus five degrees Celsius, then three kilometers and one kilogram.',
    ],
    [
      'Add 500 g of flour, 250 mg, 1 L and 8 oz; wait 30 min at 50 Hz.',
      'Add five hundred grams of flour, two hundred fifty milligrams, one liter and eight ounces; wait thirty minutes at fifty hertz.',
    ],
    ['Give 5 great ideas in 2 gigs.', 'Give five great ideas in two gigs.'],
    [
      'Count 1,2,3 and 15,000 or 1500 people.',
      'Count one, two, three and fifteen thousand or fifteen hundred people.',
    ],
    ['Call 007 now.', 'Call zero zero seven now.'],
    ['Wait \u2014 really\u2026 yes.', 'Wait, really... yes.'],
  ];
  it.each(cases)('should speak %j as words', (input, spoken) => {
    expect(normalizeText(input)).toBe(spoken);
  });

  it('should leave plain prose alone and keep paragraph breaks', () => {
    const prose = "It's a quiet morning, isn't it?\n\nYes.";
    expect(normalizeText(prose)).toBe("It's a quiet morning, isn't it?\n\nYes.");
  });

  it('should leave no digits or symbols for the phonemiser on a mixed text', () => {
    const mixed =
      'On 3/15/2024 at 10:30 am, Dr. Okafor paid $12.99 (15% off) for 2 books & 1 pen; 3.5 km away, 21st St.';
    expect(normalizeText(mixed)).not.toMatch(/[\d$€£%&#@]/);
  });
});

describe('splitSpeech', () => {
  it('should split sentences with pauses that follow their punctuation', () => {
    const chunks = splitSpeech('Hello there. How are you? Great!\nNew paragraph... The end.');
    expect(chunks.map((c) => c.text)).toEqual([
      'Hello there.',
      'How are you?',
      'Great!',
      'New paragraph...',
      'The end.',
    ]);
    expect(chunks[0].pauseAfterSec).toBeGreaterThan(0.2);
    expect(chunks[1].pauseAfterSec).toBeGreaterThanOrEqual(chunks[0].pauseAfterSec); // a question invites a breath
    expect(chunks[2].pauseAfterSec).toBe(PARAGRAPH_PAUSE_SEC);
    expect(chunks[3].pauseAfterSec).toBeGreaterThan(chunks[0].pauseAfterSec);
    expect(chunks.at(-1)!.pauseAfterSec).toBe(0);
  });

  it('should cut a very long sentence at clause marks, never mid-word, and lose no word', () => {
    const long = Array.from({ length: 40 }, (_, i) => `clause number ${i} goes on`).join(', ') + '.';
    const chunks = splitSpeech(long, { maxChars: 120 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(120);
    expect(chunks.slice(0, -1).every((c) => c.text.endsWith(','))).toBe(true);
    expect(chunks.map((c) => c.text).join(' ')).toBe(long);
  });
});

describe('Piper phoneme layout', () => {
  it('should keep one mark per clause and end the sentence with one', () => {
    expect(clauses('Hello, world')).toEqual([
      { text: 'Hello', mark: ',' },
      { text: 'world', mark: '.' },
    ]);
    expect(clauses('Really?! Yes')).toEqual([
      { text: 'Really', mark: '?' },
      { text: 'Yes', mark: '.' },
    ]);
    expect(clauses('"Wait": now; ok.')).toEqual([
      { text: 'Wait', mark: ':' },
      { text: 'now', mark: ';' },
      { text: 'ok', mark: '.' },
    ]);
  });

  it('should lay out ids as ^ _ p1 _ … pn _ $ and skip unknown codepoints', () => {
    const map = { _: [0], '^': [1], $: [2], ' ': [3], h: [20], ə: [59], '.': [10] };
    expect(phonemeIds('hə .', map)).toEqual({ ids: [1, 0, 20, 0, 59, 0, 3, 0, 10, 0, 2], missing: [] });
    expect(phonemeIds('hX', map)).toEqual({ ids: [1, 0, 20, 0, 2], missing: ['X'] });
  });

  it('should bring espeak-ng 1.51 IPA to the 1.52 spelling the voice learnt', () => {
    expect(espeak152('fˈoːɹ dˈoːɹ')).toBe('fˈɔːɹ dˈɔːɹ');
    expect(espeak152('vˈɛɹi ˈoʊld')).toBe('vˈɛɹiʲ ˈoʊld');
    expect(espeak152('vˈɪdɪoʊ piˈænoʊ')).toBe('vˈɪdɪʲoʊ piʲˈænoʊ');
    expect(espeak152('mˈɪliən lˈaɪk ðeɪ ˈeɪt')).toBe('mˈɪliən lˈaɪk ðeɪ ˈeɪt');
  });
});

describe('caption words ↔ spoken tokens', () => {
  it('should map every caption word to the tokens it became when spoken', () => {
    const text = 'Dr. Lee paid $1,234 on 3/15/2024 & left at 10:30 am — happy.';
    const { spoken, spans } = spokenSpans(text);
    const tokens = alignTokens(spoken);
    const said = text.split(/\s+/).map((_, i) => tokens.slice(...spans[i]).join(' '));
    expect(said).toEqual([
      'doctor',
      'lee',
      'paid',
      'one thousand two hundred thirty four dollars',
      'on',
      'march fifteenth twenty twenty four',
      'and',
      'left',
      'at',
      'ten thirty a',
      'm',
      '',
      'happy',
    ]);
    // Spans tile the spoken tokens in order.
    expect(spans.at(-1)![1]).toBe(tokens.length);
    spans.forEach((s, i) => i && expect(s[0]).toBe(spans[i - 1][1]));
  });

  it('should time a caption word by the first and last of its tokens', () => {
    const times = [0.1, 0.5, 0.9, 1.3].map((t) => ({ start: t, end: t + 0.3 }));
    expect(
      wordsFromSpans(
        'Pay $5 now',
        [
          [0, 1],
          [1, 3],
          [3, 4],
        ],
        times,
      ),
    ).toEqual([
      { word: 'Pay', start: 0.1, end: 0.4 },
      { word: '$5', start: 0.5, end: 1.2 },
      { word: 'now', start: 1.3, end: 1.6 },
    ]);
  });
});

describe('WAV provenance', () => {
  it('should carry engine, voice and notes through a valid WAV, and ignore other tags', () => {
    const wav = pcmToWav(Buffer.alloc(2000), 22_050);
    const tagged = withProvenance(wav, {
      engine: 'espeak-ng',
      voice_id: 'en-us+m3',
      notes: ['fell back — voice absent'],
    });
    expect(readProvenance(tagged)).toEqual({
      engine: 'espeak-ng',
      voice_id: 'en-us+m3',
      notes: ['fell back — voice absent'],
    });
    const info = parseWav(tagged);
    expect(info.dataBytes).toBe(2000);
    expect(tagged.readUInt32LE(4)).toBe(tagged.length - 8);
    expect(readProvenance(wav)).toBeNull();
    expect(readProvenance(Buffer.from('ID3 not a wav'))).toBeNull();
  });
});
