/**
 * @module containers/media/engines/mouth
 * Mouth driving for new speech (embedded, classical): a bank of the source's own mouths,
 * chosen per frame by the speech envelope and blended onto the face. See docs/processing.md.
 */
export { createMouthEditor, type MouthEditorOptions } from './editor.js';
export { analyseMouths, DEFAULT_BANK_CAPACITY, type MouthAnalysis } from './analysis.js';
export { targetOpenness, quantileMap, frameLevels, type TargetOptions } from './target.js';
export { selectPatches, type SelectOptions } from './select.js';
export { PatchBank, redundantIndex } from './bank.js';
export { fitSimilarity, applySimilarity, invertSimilarity, type Similarity } from './similarity.js';
export { blendPatch, cutPatch, type Patch } from './blend.js';
export { mouthEllipse, type Ellipse } from './landmarks.js';
export { mouthSpeechCorrelation, mouthTrack, pearson, type MouthSpeechCorrelation } from './measure.js';
