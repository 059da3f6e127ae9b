/**
 * Whisper's loop guards (pure): a repetitive decode is a loop only when its repeats are not
 * spread over the audio. Word times below are Whisper's cross-attention times as the worker
 * reported them for the two cases that set the rule (containers/media/engines/asr/README.md): the "uh, uh, …" loop of
 * mfa_uhuh.flac and a talking head whose 8 s line is looped.
 */
import { describe, expect, it } from 'vitest';
import {
  addedHesitations,
  cutInWordLoop,
  hasInWordLoop,
  isDecodingLoop,
  isHallucinatedSegment,
  isDoubtedTail,
  isHeardRepetition,
  MAX_TAIL_SEC,
  lexicalWords,
  TAIL_NO_SPEECH_PROB,
  withoutDoubtedTails,
  MAX_ADDED_HESITATIONS,
  leavesSpeechUnwritten,
  maySkipSpeech,
  MIN_WORDS_PER_SPEECH_SEC,
  MAX_COMPRESSION_RATIO,
  type WhisperSegment,
} from '../../../../../../containers/media/engines/asr/whisper-filter.js';
import { SKIPPED_HEAD_SPEECH, SKIPPED_HEAD_UTTERANCE } from './skipped-head.fixture';

type Word = WhisperSegment['words'][number];
const word = (text: string, start: number, end: number): Word => ({
  word: ` ${text}`,
  start,
  end,
  probability: 0.9,
});

/** A line of `lineWords` words, each 0.4 s, repeated `times` times back to back: speech that repeats. */
function repeatedLine(times: number, lineWords = 16): Word[] {
  return Array.from({ length: times * lineWords }, (_, i) =>
    word(`w${i % lineWords}`, i * 0.4, i * 0.4 + 0.35),
  );
}

/** mfa_uhuh.flac at temperature 0: "Montreal," and 5 heard "uh,"s, then 24 more squeezed into its end. */
function uhLoop(): Word[] {
  const heard = [
    word('Montreal,', 0, 1.28),
    ...[1.92, 2.4, 3.74, 4.12, 4.62].map((t) => word('uh,', t, t + 0.2)),
  ];
  const squeezed = Array.from({ length: 24 }, (_, i) => word('uh,', 5.32 + i * 0.025, 5.32 + i * 0.025));
  return [...heard, ...squeezed];
}

const seg = (
  compression_ratio: number,
  words: Word[],
  text = words.map((w) => w.word).join(''),
): WhisperSegment => ({
  text,
  start: 0,
  end: 24,
  avg_logprob: -0.1,
  no_speech_prob: 0.01,
  compression_ratio,
  words,
});

describe('isDecodingLoop', () => {
  it('should pass any decode that does not compress like a loop', () => {
    expect(isDecodingLoop(seg(MAX_COMPRESSION_RATIO, []))).toBe(false);
    expect(isDecodingLoop(seg(1.2, uhLoop()))).toBe(false);
  });

  it('should keep speech that repeats: each repeat over its own audio', () => {
    expect(isDecodingLoop(seg(3.26, repeatedLine(3)))).toBe(false);
  });

  it('should call a loop the decode whose repeats are squeezed into no audio', () => {
    expect(isDecodingLoop(seg(5.43, uhLoop()))).toBe(true);
  });

  it('should take a repetitive decode without word times as a loop (OpenAI rule)', () => {
    expect(isDecodingLoop(seg(3.26, []))).toBe(true);
    expect(isDecodingLoop({ compression_ratio: 3.26 })).toBe(true);
  });

  it('should turn at a fifth of the words squeezed', () => {
    const line = repeatedLine(1, 20);
    const squeeze = (n: number) => line.map((w, i) => (i < n ? { ...w, end: w.start } : w));
    expect(isDecodingLoop(seg(3, squeeze(4)))).toBe(false);
    expect(isDecodingLoop(seg(3, squeeze(5)))).toBe(true);
  });
});

describe('loops inside a word', () => {
  // Whisper base's decodes of espeak-ng Greek and Georgian, stopped early by the token bound.
  const greek = 'riferodemememememememememememememememememememememememememe';
  const georgian = 'u plebibibibibibibibibibibibibibibibibibibibibibi';

  it('should call a decode with a syllable looping inside a word a loop, whatever it compresses to', () => {
    const words = [
      { word: 'asime', start: 0, end: 0.6, probability: 0.3 },
      { word: greek, start: 0.6, end: 9.8, probability: 0.2 },
    ];
    expect(isDecodingLoop({ compression_ratio: 2, words })).toBe(true);
    expect(isDecodingLoop({ compression_ratio: 1.2, text: ` Melaa da ${georgian}` })).toBe(true);
    expect(isDecodingLoop({ compression_ratio: 1.2, text: ' Hahaha, that is funny.' })).toBe(false);
  });

  it('should cut the loop to two of its syllable and leave words, laughter and numbers be', () => {
    expect(cutInWordLoop(greek)).toBe('riferodememe');
    expect(cutInWordLoop('plebibibibibibibibibibi,')).toBe('plebibi,');
    expect(cutInWordLoop('Hmmmmmmmmmmm')).toBe('Hmm');
    for (const kept of ['Hahahaha!', 'Donaudampfschifffahrtsgesellschaft', '10000000000', 'மனிதப்']) {
      expect(cutInWordLoop(kept)).toBe(kept);
      expect(hasInWordLoop(kept)).toBe(false);
    }
  });
});

describe('isHallucinatedSegment on repetitive text', () => {
  const line = ' Everyone here today, endeavouring towards a better future for our world. In fidelity,';
  it('should keep a line said three times when each repeat was heard, and drop it when not', () => {
    const words = repeatedLine(3);
    expect(isHallucinatedSegment(seg(3.26, words, line.repeat(3)))).toBe(false);
    expect(isHallucinatedSegment(seg(3.26, [], line.repeat(3)))).toBe(true);
    const squeezed = words.map((w, i) => (i >= 16 ? { ...w, start: 6.4, end: 6.4 } : w));
    expect(isHallucinatedSegment(seg(3.26, squeezed, line.repeat(3)))).toBe(true);
  });
});

describe('isHeardRepetition', () => {
  it('should hold only for repetitive text whose repeats were placed over the audio', () => {
    expect(isHeardRepetition(seg(3.26, repeatedLine(3)))).toBe(true);
    expect(isHeardRepetition(seg(1.2, repeatedLine(1)))).toBe(false);
    expect(isHeardRepetition(seg(5.43, uhLoop()))).toBe(false);
    expect(isHeardRepetition(seg(3.26, []))).toBe(false);
  });
});

describe('skipped speech (the aligner hearing hesitations Whisper did not write)', () => {
  const words = (text: string) => text.split(' ').map((w) => ({ word: w }));
  // The prompted decode of a spliced clip that dropped its first sentence: the aligner laid the
  // written words over the whole utterance and heard the unwritten ones as hesitations.
  const written = words('Can you suggest convenient evening flights and suitable accommodation?');
  const aligned = words(
    'Can uh hmm you suggest uh convenient uh evening flights and uh suitable accommodation?',
  );

  it('should count only the hesitations the aligner added', () => {
    expect(addedHesitations(written, aligned)).toBe(5);
    expect(addedHesitations(written, aligned)).toBeGreaterThan(MAX_ADDED_HESITATIONS);
    expect(
      addedHesitations(words('Montreal, um uh uh uh forced'), words('Montreal, um uh uh uh forced')),
    ).toBe(0);
    expect(addedHesitations(words('so uh we go'), words('so we go'))).toBe(0);
  });

  it('should count the words that are not hesitations, in any language the analytics know', () => {
    expect(lexicalWords(aligned)).toBe(lexicalWords(written));
    expect(lexicalWords(words('Äh, also, euh, ich'))).toBe(2);
  });
});

describe('maySkipSpeech', () => {
  const ws = (text: string) => text.split(' ').map((word) => ({ word }));
  it('should suspect a decode with too few words for its speech, even with few hesitations added', () => {
    // The spliced tune clip: 9 words kept of 25, over about 11 s of speech; three "uh"/"um" heard.
    const written = ws('Can you suggest convenient evening flights and suitable accommodation?');
    const aligned = ws('Can you suggest uh convenient um evening flights and uh suitable accommodation?');
    expect(maySkipSpeech(written, aligned, 11)).toBe(true);
    expect(maySkipSpeech(written, aligned, 4)).toBe(false);
  });

  it('should count words, not hesitations, against the speech', () => {
    const slow = ws('but um montreal but um but montreal forced aligner');
    expect(maySkipSpeech(slow, slow, 7 / MIN_WORDS_PER_SPEECH_SEC)).toBe(false);
    expect(maySkipSpeech(slow, slow, 7.5 / MIN_WORDS_PER_SPEECH_SEC)).toBe(true);
  });
});

describe('leavesSpeechUnwritten', () => {
  const utterance = SKIPPED_HEAD_UTTERANCE;
  const speech = SKIPPED_HEAD_SPEECH;
  const timed = (spans: Array<[number, number]>) =>
    spans.flatMap(([start, end]) =>
      Array.from({ length: Math.round((end - start) * 3) }, (_, i) => ({
        word: 'mot',
        start: start + i / 3,
        end: start + (i + 1) / 3,
      })),
    );

  it('should suspect a decode whose words leave a stretch of speech without a word near it', () => {
    expect(leavesSpeechUnwritten(timed([[2.93, 10]]), utterance, speech)).toBe(true);
    expect(leavesSpeechUnwritten(timed([[0.3, 10]]), utterance, speech)).toBe(false);
  });

  it('should suspect a decode with too few words for its speech, however they are spread', () => {
    const sparse = [0.5, 2.5, 4, 5.5, 7, 9].map((start) => ({ word: 'mot', start, end: start + 1 }));
    expect(leavesSpeechUnwritten(sparse, utterance, speech)).toBe(true);
  });
});

describe('doubted tails (a later decode window of the utterance that Whisper doubts is speech)', () => {
  // Segments as the worker reported them (avg_logprob, no_speech_prob, window_start) for utterances
  // of the speech sets: after the spoken sentence, faster-whisper decoded the last fraction of a
  // second again and invented text there.
  const tail = (
    text: string,
    start: number,
    no_speech_prob: number,
    avg_logprob: number,
  ): WhisperSegment => ({
    ...seg(1, [word(text, start, start)], ` ${text}`),
    start,
    end: start + 0.2,
    avg_logprob,
    no_speech_prob,
    window_start: start,
  });
  const spoken = (text: string, start: number, end: number): WhisperSegment => ({
    ...seg(1, [word(text, start, end)], ` ${text}`),
    start,
    end,
    avg_logprob: -0.1,
    no_speech_prob: 0.01,
    window_start: 0,
  });

  it('should drop an invented tail, looping or not, in any language', () => {
    const spanish = [
      spoken('Uno menachia cabre era más que necesario.', 0.54, 3.22),
      tail('No, no, no.', 3.22, 0.53, -1.45),
    ];
    expect(withoutDoubtedTails(spanish).map((s) => s.text)).toEqual([
      ' Uno menachia cabre era más que necesario.',
    ]);
    // OpenAI's no-speech rule (> 0.6 and < −1) and the log-probability floor keep it.
    expect(isHallucinatedSegment(spanish[1])).toBe(false);
    const french = [
      spoken('la nuit était si belle que je suis descendu dans la rue, prendre le frais.', 0, 2.7),
      tail("Je vous invite vous à faire une nouvelle vidéo sur le site de l'écrité", 2.7, 0.55, -1.4),
    ];
    expect(isHallucinatedSegment(french[1])).toBe(false);
    expect(withoutDoubtedTails(french)).toHaveLength(1);
    const italian = [
      spoken('Dal passo si sale sulla vetta lungo la cresta sud.', 0.38, 3.3),
      tail('non non non non non', 3.3, 0.71, -0.33),
    ];
    expect(withoutDoubtedTails(italian)).toHaveLength(1);
  });

  it('should keep a tail with spoken words, and every segment of the first window', () => {
    // "… confirm the arrangement | in writing.": Whisper stopped before the last two words.
    const english = [spoken('confirm the arrangement', 10, 14.72), tail('in writing.', 14.72, 0.35, -0.77)];
    expect(withoutDoubtedTails(english)).toHaveLength(2);
    const unsureFirst = { ...spoken('Okay.', 0, 1), no_speech_prob: 0.9 };
    expect(isDoubtedTail(unsureFirst, 0, 1)).toBe(false);
    expect(withoutDoubtedTails([unsureFirst, { ...unsureFirst, start: 1, end: 2 }])).toHaveLength(2);
  });

  it('should judge by no-speech probability from the threshold up, and not without window starts', () => {
    expect(isDoubtedTail({ window_start: 2, no_speech_prob: TAIL_NO_SPEECH_PROB }, 0, 2.5)).toBe(true);
    expect(isDoubtedTail({ window_start: 2, no_speech_prob: TAIL_NO_SPEECH_PROB - 0.01 }, 0, 2.5)).toBe(
      false,
    );
    expect(isDoubtedTail({ no_speech_prob: 0.9 }, 0, 2.5)).toBe(false);
    expect(isDoubtedTail({ window_start: 2, no_speech_prob: 0.9 }, undefined, 2.5)).toBe(false);
    expect(isDoubtedTail({ window_start: 2, no_speech_prob: 0.9 }, 0, 2 + MAX_TAIL_SEC)).toBe(true);
    expect(isDoubtedTail({ window_start: 2, no_speech_prob: 0.9 }, 0, 2.01 + MAX_TAIL_SEC)).toBe(false);
  });

  it('should keep a long later window of speech, however unsure Whisper is of it', () => {
    // Noisy speech Whisper stopped before: seconds of words, not a tail of padding.
    const first = { ...seg(1, [word('Un truc', 0, 4)], ' Un truc'), start: 0, end: 4.06, window_start: 0 };
    const rest = (start: number, end: number, text: string): WhisperSegment => ({
      ...seg(1, [word(text, start, end)], ` ${text}`),
      start,
      end,
      no_speech_prob: 0.5,
      window_start: 4.58,
    });
    const kept = withoutDoubtedTails([first, rest(4.58, 4.9, 'ma chambre,'), rest(4.9, 7.76, 'mais bon')]);
    expect(kept.map((s) => s.text)).toEqual([' Un truc', ' ma chambre,', ' mais bon']);
  });
});
