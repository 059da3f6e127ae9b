/**
 * @module web/results/targets
 * The coaching targets the summary cards and the timeline measure a talk against.
 */
export const TARGET_WPM_LOW = 130;
export const TARGET_WPM_HIGH = 160;
export const MAX_FILLERS_PER_MIN = 3;
export const MAX_LONG_PAUSES_PER_MIN = 2;
export const MIN_GAZE_AT_CAMERA = 0.6;
