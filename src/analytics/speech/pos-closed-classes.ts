/**
 * @module analytics/speech/pos-closed-classes
 * The closed word classes of German, French and Spanish (articles and other determiners,
 * pronouns, auxiliaries, conjunctions, negation and the commonest adverbs and prepositions) with
 * their Universal Dependencies tag. The rule-based taggers of these languages (pos-compromise)
 * guess these short, ambiguous words worst: a possessive read as a pronoun, "ist" or "est" as a
 * main verb, "nicht" and "no" as verbs, "que" as a preposition. These words are facts of each
 * language's grammar (any grammar book lists them), written here by hand, not learnt from a
 * treebank; where a form has two uses the commoner one is given (German "die" a determiner
 * rather than a relative pronoun, French "en" left to the tagger).
 */

type Upos = 'DET' | 'PRON' | 'AUX' | 'SCONJ' | 'CCONJ' | 'PART' | 'ADV' | 'ADP' | 'INTJ';

/** Pure: a word → tag map from space-separated lists per tag. */
function lexicon(classes: Partial<Record<Upos, string>>): ReadonlyMap<string, Upos> {
  const out = new Map<string, Upos>();
  for (const [tag, words] of Object.entries(classes) as Array<[Upos, string]>)
    for (const w of words.split(/\s+/).filter(Boolean)) out.set(w, tag);
  return out;
}

const GERMAN = lexicon({
  DET: `der die das den dem des ein eine einen einem einer eines kein keine keinen keinem keiner keines
    dieser diese dieses diesen diesem dies jener jene jenes jenen jenem jeder jede jedes jeden jedem
    mein meine meinen meinem meiner meines dein deine deinen deinem deiner deines sein seine seinen
    seinem seiner seines ihr ihre ihren ihrem ihrer ihres unser unsere unseren unserem unserer unseres
    euer eure euren eurem eurer eures alle aller allen allem alles manche manchen viele vielen einige
    einigen mehrere welche welcher welches welchen welchem solche solchen beide beiden`,
  PRON: `ich du er sie es wir mich dich sich uns euch mir dir ihm ihn ihnen man jemand niemand nichts
    etwas wer was`,
  AUX: `bin bist ist sind seid war warst waren wart gewesen sei seien wäre wären habe hast hat haben habt
    hatte hattest hatten hattet gehabt hätte hätten werde wirst wird werden werdet wurde wurden würde
    würden worden kann kannst können könnt konnte konnten könnte könnten muss musst müssen müsst musste
    mussten müsste müssten soll sollst sollen sollt sollte sollten will willst wollen wollt wollte
    wollten darf darfst dürfen durfte durften dürfte mag mögen möchte möchten`,
  PART: 'nicht',
  SCONJ: 'dass daß wenn weil ob obwohl nachdem bevor falls sodass',
  CCONJ: 'und oder aber sondern sowie bzw beziehungsweise sowohl weder',
  ADV: `auch noch schon nur sehr immer dann hier dort jetzt heute bereits dabei dazu dagegen mal so
    etwa zudem bisher wieder oft sogar fast gerade eigentlich also halt eben nun mehr`,
  ADP: `in an auf mit von für bei nach aus über unter vor hinter neben zwischen durch gegen ohne um seit
    bis wegen trotz innerhalb außerhalb im am zum zur vom beim ins ans`,
});

const FRENCH = lexicon({
  DET: `le la les l' un une des du au aux ce cet cette ces mon ma mes ton ta tes son sa ses notre nos
    votre vos leur leurs chaque plusieurs quelques aucun aucune`,
  PRON: `je j' tu il elle on nous vous ils elles me m' te t' se s' lui y ce c' ça cela ceci qui dont où
    quoi celui celle ceux celles rien personne chacun moi toi soi eux`,
  AUX: `suis es est sommes êtes sont étais était étions étiez étaient été être serai seras sera serons
    serez seront serais serait serions seraient sois soit soyons soient ai as a avons avez ont avais
    avait avions aviez avaient eu avoir aurai auras aura aurons aurez auront aurais aurait aurions
    auraient aie ait aient`,
  SCONJ: "que qu' si quand lorsque puisque quoique parce",
  CCONJ: 'et ou mais donc or ni car',
  ADV: `ne n' pas plus très bien aussi encore déjà toujours jamais ici là alors puis ensuite surtout
    seulement trop peu beaucoup tellement vraiment non aujourd'hui`,
  ADP: `à de d' dans sur sous avec pour par sans chez vers entre contre depuis pendant après avant selon
    malgré jusqu' jusque`,
  INTJ: 'oui voilà',
});

const SPANISH = lexicon({
  DET: `el la los las un una unos unas este esta estos estas ese esa esos esas aquel aquella aquellos
    aquellas mi mis tu tus su sus nuestro nuestra nuestros nuestras vuestro vuestra vuestros vuestras
    cada todo toda todos todas otro otra otros otras mucho mucha muchos muchas poco poca pocos pocas
    ningún ninguna algún alguna algunos algunas varios varias cuyo cuya cuyos cuyas`,
  PRON: `yo tú él ella nosotros nosotras vosotros vosotras ellos ellas usted ustedes me te se nos os le
    les mí ti sí conmigo contigo quien quienes esto eso aquello algo nada alguien nadie`,
  AUX: `es era fue son eran fueron ser sido siendo sea sean soy eres somos sois está están estaba
    estaban estar estado estoy estás estamos ha han he has hemos habéis había habían haber habido
    hubo habrá habría`,
  SCONJ: 'que porque si aunque mientras pues',
  CCONJ: 'y e o u pero sino ni',
  ADV: `no también muy más menos solo sólo ya aún todavía siempre nunca jamás aquí allí ahí así bien mal
    tan casi además entonces luego hoy ayer`,
  ADP: 'a de en con por para sin sobre entre hasta desde hacia según durante al del',
});

const CLOSED_CLASSES: Readonly<Record<string, ReadonlyMap<string, Upos>>> = {
  de: GERMAN,
  fr: FRENCH,
  es: SPANISH,
};

/**
 * Pure: the closed-class tag of a lowercase word form in `language`, if it has one.
 * @example closedClassTag('de', 'ist') // 'AUX'
 */
export function closedClassTag(language: string, word: string): Upos | undefined {
  return CLOSED_CLASSES[language]?.get(word.replace(/’/g, "'"));
}
