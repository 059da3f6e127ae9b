import { describe, expect, it } from 'vitest';
import { SPEECH_LANGUAGES } from '../../../../../src/analytics/speech/languages';
import { closedClassTag } from '../../../../../src/analytics/speech/pos-closed-classes';
import {
  hasCompromiseTagger,
  tagTokensWithCompromise,
  uposOfCompromise,
} from '../../../../../src/analytics/speech/pos-compromise';
import { buildTokens } from '../../../../../src/analytics/speech/tokens';

/** Words of a sentence, one second apart, punctuation attached as a recogniser writes it. */
function tagged(sentence: string, language: string): Record<string, string> {
  const tokens = buildTokens(
    sentence.split(' ').map((word, i) => ({ word, start: i, end: i + 0.5, confidence: 1 })),
    language,
  );
  const tags = tagTokensWithCompromise(tokens, language);
  return Object.fromEntries(tokens.map((t, i) => [t.norm, tags[i]]));
}

describe('parts of speech of German, French and Spanish', () => {
  it('should map compromise tags to Universal Dependencies, pronouns and auxiliaries apart', () => {
    expect(uposOfCompromise(['Noun', 'Pronoun'])).toBe('PRON');
    expect(uposOfCompromise(['Noun', 'ProperNoun'])).toBe('PROPN');
    expect(uposOfCompromise(['Verb', 'Auxiliary'])).toBe('AUX');
    expect(uposOfCompromise(['Verb', 'Copula'])).toBe('AUX');
    expect(uposOfCompromise(['Verb', 'PresentTense'])).toBe('VERB');
    expect(uposOfCompromise(['Adjective'])).toBe('ADJ');
    expect(uposOfCompromise(['Preposition'])).toBe('ADP');
    expect(uposOfCompromise(['Noun', 'FemaleNoun'])).toBe('NOUN');
    expect(uposOfCompromise([])).toBe('X');
  });

  it('should give closed-class words their class, whatever the case or apostrophe', () => {
    expect(closedClassTag('de', 'ist')).toBe('AUX');
    expect(closedClassTag('de', 'nicht')).toBe('PART');
    expect(closedClassTag('fr', 'l’')).toBe('DET');
    expect(closedClassTag('es', 'que')).toBe('SCONJ');
    expect(closedClassTag('it', 'che')).toBeUndefined();
    expect(closedClassTag('de', 'wasser')).toBeUndefined();
  });

  it('should tag content words of each language and keep function words out of the six', () => {
    const de = tagged('Der Wasserstand ist zu hoch und das Ventil tropft nicht mehr.', 'de');
    expect(de).toMatchObject({
      wasserstand: 'NOUN',
      ventil: 'NOUN',
      tropft: 'VERB',
      hoch: 'ADJ',
      ist: 'AUX',
    });
    expect(de.nicht).toBe('PART');
    const fr = tagged("Euh, l'homme qu'il a vu hier était très grand.", 'fr');
    // "l'homme" is the determiner and the noun: the noun is reported; "qu'il" reports nothing.
    expect(fr).toMatchObject({ euh: 'INTJ', "l'homme": 'NOUN', vu: 'VERB', très: 'ADV', grand: 'ADJ' });
    expect(['SCONJ', 'PRON']).toContain(fr["qu'il"]);
    const es = tagged('Tengo un problema con el agua y no funciona bien.', 'es');
    expect(es).toMatchObject({ problema: 'NOUN', agua: 'NOUN', con: 'ADP', funciona: 'VERB', bien: 'ADV' });
    expect(es.un).toBe('DET');
  });

  it('should name in each language profile exactly the languages that have a tagger', () => {
    const profiled = Object.entries(SPEECH_LANGUAGES)
      .filter(([, p]) => p.posTagger)
      .map(([code]) => code);
    expect(profiled.sort()).toEqual(['de', 'es', 'fr']);
    for (const code of Object.keys(SPEECH_LANGUAGES))
      expect(hasCompromiseTagger(code)).toBe(profiled.includes(code));
  });
});
