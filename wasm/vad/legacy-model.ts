/**
 * @module
 * Side-effect import that bundles the Silero v4 (`legacy`) model and registers it, so
 * `detectSpeech(pcm, { model: 'legacy' })` works. Not imported by `wasm/index.ts`: a Worker
 * that only uses v5 (the pipeline) ships one model, not two (~1.5 MB gzip saved).
 *
 * @example
 * import '../../wasm/vad/legacy-model.js';
 * const segments = await detectSpeech(pcm, { model: 'legacy' });
 */
import legacyModel from '@ricky0123/vad-web/dist/silero_vad_legacy.onnx';
import { registerSileroModel } from './silero.js';

registerSileroModel('legacy', legacyModel);
