/**
 * The Human configuration's knobs: which face detector runs, and what the `VISION_*` variables
 * select (parsed by the container's config, core/config.ts).
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, configFrom } from '../../../../../../../containers/media/core/config.js';
import { humanConfig } from '../../../../../../../containers/media/engines/vision/human/config.js';
import { EDGE_WRIST_HAND_EVERY_NTH } from '../../../../../../../containers/media/engines/vision/hand-crop.js';

const faceDetectorModel = (config: Record<string, unknown>) =>
  ((config.face as Record<string, unknown>).detector as Record<string, unknown>).modelPath;
const handDetectorModel = (config: Record<string, unknown>) =>
  ((config.hand as Record<string, unknown>).detector as Record<string, unknown>).modelPath;

describe('VISION_FACE_DETECTOR', () => {
  it('should take a known model, the short-range one when unset', () => {
    expect(configFrom({ VISION_FACE_DETECTOR: 'blazeface' }).vision.faceDetector).toBe('blazeface');
    expect(configFrom({ VISION_FACE_DETECTOR: 'blazeface-front' }).vision.faceDetector).toBe(
      'blazeface-front',
    );
    expect(configFrom({}).vision.faceDetector).toBe('blazeface-front');
  });

  it('should refuse an unknown model, naming the variable', () => {
    expect(() => configFrom({ VISION_FACE_DETECTOR: '../../etc/passwd' })).toThrow(ConfigError);
    expect(() => configFrom({ VISION_FACE_DETECTOR: '../../etc/passwd' })).toThrow(/VISION_FACE_DETECTOR/);
  });
});

describe('VISION_EDGE_WRISTS_EVERY_NTH', () => {
  it('should take 1–10, default to the hand-crop module’s own default, and refuse anything else', () => {
    expect(configFrom({ VISION_EDGE_WRISTS_EVERY_NTH: '1' }).vision.edgeWristsEveryNth).toBe(1);
    expect(configFrom({ VISION_EDGE_WRISTS_EVERY_NTH: '10' }).vision.edgeWristsEveryNth).toBe(10);
    expect(configFrom({}).vision.edgeWristsEveryNth).toBe(EDGE_WRIST_HAND_EVERY_NTH);
    for (const bad of ['0', '11', '2.5', 'often'])
      expect(() => configFrom({ VISION_EDGE_WRISTS_EVERY_NTH: bad })).toThrow(/VISION_EDGE_WRISTS_EVERY_NTH/);
  });
});

describe('the engine’s switches', () => {
  it('should keep each variable’s default and its one non-default value', () => {
    const defaults = configFrom({}).vision;
    expect(defaults).toMatchObject({
      wristCrops: true,
      closeupHands: true,
      faceCrops: true,
      faceTracking: false,
      fastDecode: false,
      hands: 'visible-wrist',
      handDetector: 'handtrack',
    });
    const set = configFrom({
      VISION_WRIST_CROPS: '0',
      VISION_CLOSEUP_HANDS: '0',
      VISION_FACE_CROPS: '0',
      VISION_FACE_TRACKING: '1',
      VISION_FAST_DECODE: '1',
      VISION_HANDS: 'always',
      VISION_HAND_DETECTOR: 'handdetect',
    }).vision;
    expect(set).toMatchObject({
      wristCrops: false,
      closeupHands: false,
      faceCrops: false,
      faceTracking: true,
      fastDecode: true,
      hands: 'always',
      handDetector: 'handdetect',
    });
  });
});

describe('humanConfig', () => {
  it('should load the chosen face and hand detector models', () => {
    expect(faceDetectorModel(humanConfig({ faceDetector: 'blazeface-front' }))).toBe('blazeface-front.json');
    expect(faceDetectorModel(humanConfig({ faceDetector: 'blazeface' }))).toBe('blazeface.json');
    expect(handDetectorModel(humanConfig({ handDetector: 'handdetect' }))).toBe('handdetect.json');
    expect(handDetectorModel(humanConfig({ handDetector: 'handtrack' }))).toBe('handtrack.json');
  });
});
