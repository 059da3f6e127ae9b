/**
 * Ambient types for `vader-sentiment` (the package ships none). Only what we call is declared.
 * We import the package's prebuilt CommonJS bundle (its `main`): its `src/` is untyped ESM
 * without `"type": "module"`, which Node would refuse to load.
 */
declare module 'vader-sentiment' {
  interface PolarityScores {
    neg: number;
    neu: number;
    pos: number;
    /** Normalised sum of valences, -1..1. */
    compound: number;
  }
  const vader: {
    SentimentIntensityAnalyzer: { polarity_scores(text: string): PolarityScores };
  };
  export default vader;
}
