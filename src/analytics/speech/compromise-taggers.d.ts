/** A compromise tagger: only the call pos-compromise.ts makes. */
type CompromiseTagger = (text: string) => { json(options: { offset: true }): unknown };

export declare const de: CompromiseTagger;
export declare const es: CompromiseTagger;
export declare const fr: CompromiseTagger;
