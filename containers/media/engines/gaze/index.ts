/**
 * @module containers/media/engines/gaze
 * Eye-contact correction: the `GazeEngine` port, the embedded landmark warp and the remote
 * service adapter, plus the gaze measurement used to verify them.
 */
export { embeddedGazeEngine, gazeEngineFrom, type GazeEngine } from './engine.js';
export { createWarpGazeEditor, type WarpGazeEditorOptions } from './editor.js';
export { eyeGeometry, irisShifts, type EyeGeometry, type GazeTargetOptions } from './geometry.js';
export { warpEye } from './warp.js';
export { correctGazeRemote, GazeServiceError, type GazeServiceOptions } from './remote.js';
export { measureGaze, type GazeMeasurement, type GazeMeasureOptions } from './measure.js';
