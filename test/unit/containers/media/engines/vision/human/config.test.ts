/**
 * The Human configuration's knobs: which face detector runs, and what the env can select.
 */
import { describe, expect, it } from 'vitest';
import {
  defaultFaceDetector,
  humanConfig,
} from '../../../../../../../containers/media/engines/vision/human/config.js';

const faceDetectorModel = (config: Record<string, unknown>) =>
  ((config.face as Record<string, unknown>).detector as Record<string, unknown>).modelPath;

describe('defaultFaceDetector', () => {
  it('should take a known model from VISION_FACE_DETECTOR', () => {
    expect(defaultFaceDetector({ VISION_FACE_DETECTOR: 'blazeface' })).toBe('blazeface');
    expect(defaultFaceDetector({ VISION_FACE_DETECTOR: 'blazeface-front' })).toBe('blazeface-front');
  });

  it('should fall back to the default for an unset or unknown model', () => {
    const fallback = defaultFaceDetector({});
    expect(['blazeface', 'blazeface-front']).toContain(fallback);
    expect(defaultFaceDetector({ VISION_FACE_DETECTOR: '../../etc/passwd' })).toBe(fallback);
  });
});

describe('humanConfig', () => {
  it('should load the chosen face detector model', () => {
    expect(faceDetectorModel(humanConfig({ faceDetector: 'blazeface-front' }))).toBe('blazeface-front.json');
    expect(faceDetectorModel(humanConfig({ faceDetector: 'blazeface' }))).toBe('blazeface.json');
  });
});
