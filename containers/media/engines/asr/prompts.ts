/**
 * @module containers/media/engines/asr/prompts
 * Whisper's initial prompt per spoken language. Whisper continues the style of its prompt: one
 * written the way people speak, with the language's own hesitations, makes it keep "um", "äh",
 * "euh" that it otherwise tidies away. The prompt must be in the language spoken: an English
 * prompt before German speech pulls the decode towards English. A language without a prompt
 * here is decoded without one (Whisper's clean style: fewer hesitations written, none invented).
 */

/** English: measured on ../shared/media/disfluent and the multi-speaker set (bench/speech). */
export const DISFLUENT_PROMPT = "Umm, let me think like, hmm... Okay, here's what I'm, like, thinking.";

/** Prompts written with each language's hesitation sounds and markers (languages.ts). */
export const DISFLUENT_PROMPTS: Readonly<Record<string, string>> = {
  en: DISFLUENT_PROMPT,
  de: 'Ähm, also, ich denke, äh... na ja, hm, das ist halt so.',
  es: 'Eh, bueno, este... o sea, mmm, lo que pienso es que, eh, sí.',
  fr: "Euh, alors, ben... euh, hum, en fait, c'est ce que je pense.",
  pt: 'Hã, então, tipo... hum, né, o que eu acho é que, é, sim.',
  it: 'Ehm, allora, cioè... eh, mmm, quello che penso è che, ecco.',
  nl: 'Eh, nou, ehm... dus, uh, ik denk eigenlijk dat, hm, ja.',
};

/** The prompt for a language: `english` for English (the engine's setting), else the table's or none. */
export function promptFor(language: string, english: string = DISFLUENT_PROMPT): string {
  return language === 'en' ? english : (DISFLUENT_PROMPTS[language] ?? '');
}
