/**
 * @module analytics/visual/warnings
 * What the video section could not see, for the analysis's `warnings`: its numbers read 0 or
 * "unknown" where nothing was seen, which alone looks like a measurement.
 */
import type { VisionFrame } from '../../contract/media.js';

/**
 * Pure: the warnings of the sampled frames: nobody in any of them; or a body but never a face (a
 * face too small for the face model, turned away or covered), so the face's numbers are unmeasured.
 * @example visualWarnings([{ pose: null, face: null }]) // ['no person was detected in the video']
 */
export function visualWarnings(frames: ReadonlyArray<Pick<VisionFrame, 'pose' | 'face'>>): string[] {
  if (frames.length === 0) return [];
  if (frames.every((f) => !f.pose && !f.face)) return ['no person was detected in the video'];
  if (frames.every((f) => !f.face))
    return [
      'no face was seen in the video (too small, turned away or covered): eye openness, gaze, mouth, smile and emotion are not measured (0 or unknown)',
    ];
  return [];
}
