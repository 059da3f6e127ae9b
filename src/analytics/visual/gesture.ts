/**
 * @module analytics/visual/gesture
 * Hand shape from the 21 MediaPipe hand landmarks: which fingers are extended, and the label
 * `open_hand`, `pinch_or_point` or `none`.
 *
 * Landmarks: 0 wrist; thumb 1–4; index 5–8; middle 9–12; ring 13–16; pinky 17–20 (MCP, PIP,
 * DIP, TIP for the four fingers; CMC, MCP, IP, TIP for the thumb).
 */
import type { Point } from '../../contract/media.js';
import { dist, toVec } from './math.js';
import type { GestureLabel } from './types.js';

/**
 * A finger is extended when its joints lie nearly on a line: straight distance MCP→TIP over the
 * bone-path length MCP→PIP→DIP→TIP. A straight line stays straight in any projection, so this
 * holds however the hand is turned; a curled finger scores well below.
 */
export const FINGER_STRAIGHTNESS_MIN = 0.85;
/** Pinch when thumb tip and index tip are closer than this fraction of the palm length. */
export const PINCH_MAX_PALM_FRACTION = 0.25;
/** `open_hand` needs at least this many extended fingers (thumb included). */
export const OPEN_HAND_MIN_FINGERS = 4;

/** Extension of each finger. */
export interface Fingers {
  thumb: boolean;
  index: boolean;
  middle: boolean;
  ring: boolean;
  pinky: boolean;
}

const CHAINS = {
  index: [5, 6, 7, 8],
  middle: [9, 10, 11, 12],
  ring: [13, 14, 15, 16],
  pinky: [17, 18, 19, 20],
} as const;

function straightness(landmarks: Point[], chain: readonly number[]): number {
  const pts = chain.map((i) => toVec(landmarks[i]));
  if (pts.some((p) => p === null)) return 0;
  const p = pts as NonNullable<(typeof pts)[number]>[];
  let path = 0;
  for (let i = 1; i < p.length; i++) path += dist(p[i - 1], p[i]);
  return path > 1e-9 ? dist(p[0], p[p.length - 1]) / path : 0;
}

/** Which fingers are extended; all false for fewer than 21 landmarks. */
export function fingerExtension(landmarks: Point[] | null): Fingers {
  const none: Fingers = { thumb: false, index: false, middle: false, ring: false, pinky: false };
  if (!landmarks || landmarks.length < 21) return none;
  const wrist = toVec(landmarks[0]);
  const finger = (chain: readonly number[]): boolean => {
    if (straightness(landmarks, chain) < FINGER_STRAIGHTNESS_MIN) return false;
    // A straight finger folded flat at the knuckle toward the wrist is not extended.
    const tip = toVec(landmarks[chain[3]]);
    const pip = toVec(landmarks[chain[1]]);
    return !!wrist && !!tip && !!pip && dist(wrist, tip) > dist(wrist, pip);
  };
  // The thumb is extended when straight and its tip is farther from the pinky knuckle than its
  // own MCP is (a folded thumb crosses the palm toward the pinky).
  const t = toVec(landmarks[4]);
  const tMcp = toVec(landmarks[2]);
  const pinkyMcp = toVec(landmarks[17]);
  const thumb =
    straightness(landmarks, [1, 2, 3, 4]) >= FINGER_STRAIGHTNESS_MIN &&
    !!t &&
    !!tMcp &&
    !!pinkyMcp &&
    dist(t, pinkyMcp) > dist(tMcp, pinkyMcp);
  return {
    thumb,
    index: finger(CHAINS.index),
    middle: finger(CHAINS.middle),
    ring: finger(CHAINS.ring),
    pinky: finger(CHAINS.pinky),
  };
}

/** Thumb tip and index tip touch (closer than {@link PINCH_MAX_PALM_FRACTION} of the palm length). */
export function isPinch(landmarks: Point[] | null): boolean {
  if (!landmarks || landmarks.length < 21) return false;
  const [w, m, t, i] = [0, 9, 4, 8].map((k) => toVec(landmarks[k]));
  if (!w || !m || !t || !i) return false;
  const palm = dist(w, m);
  return palm > 1e-9 && dist(t, i) < PINCH_MAX_PALM_FRACTION * palm;
}

/**
 * Gesture label of one hand. Order matters: a pinch is checked first (an "OK" sign has three
 * fingers up but is a pinch), then `open_hand` (≥ 4 extended fingers), then pointing (index
 * extended, middle/ring/pinky not; the thumb may do anything).
 */
export function classifyGesture(landmarks: Point[] | null): GestureLabel {
  if (!landmarks || landmarks.length < 21) return 'none';
  if (isPinch(landmarks)) return 'pinch_or_point';
  const f = fingerExtension(landmarks);
  const count = [f.thumb, f.index, f.middle, f.ring, f.pinky].filter(Boolean).length;
  if (count >= OPEN_HAND_MIN_FINGERS) return 'open_hand';
  if (f.index && !f.middle && !f.ring && !f.pinky) return 'pinch_or_point';
  return 'none';
}
