/**
 * @module analytics/visual/types
 * Input and option types of the visual analytics, and the label unions they produce.
 */
import type { TimeSegment } from '../../contract/media.js';

/**
 * Speech events the visual timeline is correlated with (built by the pipeline from the speech
 * section): filler-word instances, pauses (`pauses.time_series`), and the spans of words with
 * sentiment compound > 0 (`positive`) or < 0 (`negative`).
 */
export interface SpeechEvents {
  fillers: TimeSegment[];
  pauses: TimeSegment[];
  positive: TimeSegment[];
  negative: TimeSegment[];
}

/** Which hand, from the person's own point of view (as in `FrameObservation`). */
export type HandSide = 'left' | 'right';

/** Vertical level of a wrist relative to the body; see DEFINITIONS.md. */
export type HandLevel = 'above_head' | 'shoulder' | 'chest' | 'waist' | 'below_waist' | 'not_visible';

/** Hand shape per hand; `none` = no hand seen or any other shape. */
export type GestureLabel = 'open_hand' | 'pinch_or_point' | 'none';

export type GazeX = 'left' | 'center' | 'right';
export type GazeY = 'up' | 'center' | 'down';

/** Unit of `posture_summary` values. */
export type PostureUnit = 'seconds' | 'frames';

/** Options of {@link analyzeVisual}. Every field is optional; defaults in the JSDoc. */
export interface VisualOptions {
  /**
   * Unit of `posture_summary`: whole seconds (frame durations summed, then rounded) or sampled
   * frames. @default 'seconds'
   */
  postureUnit?: PostureUnit;
  /** Minimum MoveNet keypoint score to use a keypoint. @default 0.3 */
  minKeypointScore?: number;
  /** Minimum hand-detector score to use a hand's landmarks. @default 0.5 */
  minHandScore?: number;
  /** |gaze_angle_x| at or below this many degrees is `center`. @default 10 */
  gazeCenterXDeg?: number;
  /** |gaze_angle_y| at or below this many degrees is `center`. @default 10 */
  gazeCenterYDeg?: number;
  /** Add the engine's head yaw/pitch to the eye-in-head angles. @default true */
  useHeadRotation?: boolean;
}
