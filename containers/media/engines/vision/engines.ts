/**
 * @module containers/media/engines/vision/engines
 * The ports of the vision step: one interface per body part, plus the combined engine the
 * frame pipeline drives. Adapters (the embedded `@vladmandic/human` default, or a remote
 * service) implement these; the pipeline only ever sees `FrameObservation` parts.
 */
import type { FrameObservation } from '../../../../src/contract/media.js';

/** One decoded frame: packed RGB24, row-major, no padding (what ffmpeg `-pix_fmt rgb24` emits). */
export interface RgbFrame {
  /** Seconds from the start of the media. */
  time: number;
  width: number;
  height: number;
  /** `width * height * 3` bytes. */
  data: Uint8Array;
  /** The frame's ordinal among a clip's samples (0, 1, …), when it comes from one: paces the hand passes on edge wrists. */
  index?: number;
}

export type PoseObservation = FrameObservation['pose'];
export type HandObservation = FrameObservation['hands'][number];
export type FaceObservation = FrameObservation['face'];

/** Wall time each model family spent on one frame, in milliseconds. */
export interface ModelTimings {
  pose: number;
  face: number;
  hands: number;
  /** Extra hand passes on crops around wrists the full-frame pass found no hand for (0 when none ran). */
  handCrops: number;
  /** Everything else: tensor upload, pre/post-processing. */
  other: number;
}

/** Body keypoints of the most prominent person, or null when nobody is found. */
export interface PoseEngine extends Disposable {
  readonly name: string;
  detectPose(frame: RgbFrame): Promise<PoseObservation>;
  dispose(): void;
}

/** Hands in the frame (0..2); `side` is the person's own hand when it can be told. */
export interface HandEngine extends Disposable {
  readonly name: string;
  detectHands(frame: RgbFrame): Promise<HandObservation[]>;
  dispose(): void;
}

/** The most prominent face with its mesh, head rotation and emotion scores, or null. */
export interface FaceEngine extends Disposable {
  readonly name: string;
  detectFace(frame: RgbFrame): Promise<FaceObservation>;
  dispose(): void;
}

/**
 * All three in one pass. Engines that share work across parts (one tensor upload, hand sides
 * taken from the pose's wrists) implement this directly; `combineEngines` adapts three
 * separate engines.
 */
export interface VisionEngine extends Disposable {
  readonly name: string;
  observe(frame: RgbFrame): Promise<{ observation: FrameObservation; timings: ModelTimings }>;
  dispose(): void;
}

/**
 * Adapts three single-purpose engines into a `VisionEngine`, timing each.
 * @example
 * const engine = combineEngines(myPose, myHands, myFace);
 * const { observation } = await engine.observe(frame);
 */
export function combineEngines(pose: PoseEngine, hands: HandEngine, face: FaceEngine): VisionEngine {
  const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
    const start = performance.now();
    const value = await fn();
    return [value, performance.now() - start];
  };
  const dispose = () => {
    pose.dispose();
    hands.dispose();
    face.dispose();
  };
  return {
    name: `${pose.name}+${hands.name}+${face.name}`,
    async observe(frame) {
      const [p, poseMs] = await timed(() => pose.detectPose(frame));
      const [h, handsMs] = await timed(() => hands.detectHands(frame));
      const [f, faceMs] = await timed(() => face.detectFace(frame));
      return {
        observation: {
          time: frame.time,
          width: frame.width,
          height: frame.height,
          pose: p,
          hands: h,
          face: f,
        },
        timings: { pose: poseMs, hands: handsMs, handCrops: 0, face: faceMs, other: 0 },
      };
    },
    dispose,
    [Symbol.dispose]: dispose,
  };
}
