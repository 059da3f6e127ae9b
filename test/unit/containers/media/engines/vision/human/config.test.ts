/**
 * The Human configuration's knobs: which face detector runs, and what the env can select.
 */
import { describe, expect, it } from 'vitest';
import {
  defaultEdgeWristsEveryNth,
  defaultFaceDetector,
  humanConfig,
} from '../../../../../../../containers/media/engines/vision/human/config.js';
import { EDGE_WRIST_HAND_EVERY_NTH } from '../../../../../../../containers/media/engines/vision/hand-crop.js';

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

describe('defaultEdgeWristsEveryNth', () => {
  it('should take 1–10 from VISION_EDGE_WRISTS_EVERY_NTH and fall back to the default otherwise', () => {
    expect(defaultEdgeWristsEveryNth({ VISION_EDGE_WRISTS_EVERY_NTH: '1' })).toBe(1);
    expect(defaultEdgeWristsEveryNth({ VISION_EDGE_WRISTS_EVERY_NTH: '10' })).toBe(10);
    for (const bad of [undefined, '0', '11', '2.5', 'often'])
      expect(defaultEdgeWristsEveryNth({ VISION_EDGE_WRISTS_EVERY_NTH: bad })).toBe(
        EDGE_WRIST_HAND_EVERY_NTH,
      );
  });
});

describe('humanConfig', () => {
  it('should load the chosen face detector model', () => {
    expect(faceDetectorModel(humanConfig({ faceDetector: 'blazeface-front' }))).toBe('blazeface-front.json');
    expect(faceDetectorModel(humanConfig({ faceDetector: 'blazeface' }))).toBe('blazeface.json');
  });
});
