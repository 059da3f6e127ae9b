/**
 * @module contract/media
 * Plain data exchanged between the pipeline, the media container and the pure analytics.
 * Times are seconds from the start of the media; images are in pixels of the sampled frame.
 */

/**
 * Longest media accepted by default, in seconds of real content (`MAX_MEDIA_DURATION_SEC`): 2 h.
 * Chosen with the whole-job bound (`JOB_MAX_RUN_MS`, 8 h): every option at once renders at about
 * 3× real time on two cores, so 2 h of media can finish inside one job's run.
 */
export const DEFAULT_MAX_MEDIA_DURATION_SEC = 2 * 3600;

/** Fixed part of every work budget, seconds: model loading, a cold container, the upload to the container. */
export const WORK_BUDGET_BASE_SEC = 120;
/**
 * Seconds of work budget per second of media, for the Worker's container requests and the
 * container's renders alike. The slowest measured work (blur + edits at 720p, or vision at 2 fps)
 * runs about 1–1.5× real time on two busy cores: 10× stops only stuck or runaway work.
 */
export const WORK_BUDGET_PER_MEDIA_SEC = 10;
/**
 * Longest a container request waits for its key's turn (the media service runs a few jobs per key
 * at once: containers/media/server/admission.ts) before it runs anyway. Not part of the work budget:
 * the budget starts when the work does, and the Worker's fetch allows for the wait on top.
 */
export const MAX_ADMISSION_WAIT_SEC = 600;

/** What can be wrong with an input for a job, found from its probe (the container's `mediaProblem`). */
export const MEDIA_PROBLEM_CODES = [
  'no_streams',
  'still_image',
  'too_short',
  'too_long',
  'too_small',
  'too_large',
  'bad_frame_rate',
] as const;
export type MediaProblemCode = (typeof MEDIA_PROBLEM_CODES)[number];

/**
 * How a video's samples are to be read (ffmpeg's names; null where the file does not say, or says
 * something outside ffmpeg's `setparams` vocabulary): range `tv`/`pc`, matrix, transfer, primaries.
 */
export interface VideoColor {
  range: string | null;
  space: string | null;
  transfer: string | null;
  primaries: string | null;
}

/**
 * Pure: the warning (an analysis's `warnings`, a processing report's `notes`) for a file that holds
 * less than its header announces; else null. `covers`: what was made of the rest ("the analysis").
 */
export function cutShortNote(probe: ProbeResult, covers: string): string | null {
  const announced = probe.header_duration_sec;
  if (announced === undefined) return null;
  const held = `${probe.duration_sec.toFixed(1)} s`;
  return (
    `the file holds less than its header announces (${held} of ${announced.toFixed(1)} s): ` +
    `it may have been cut short in an upload or copy; ${covers} covers the ${held} that could be read`
  );
}

/** What the container learns from `ffprobe` about an input. */
export interface ProbeResult {
  format: string;
  /** What the content holds (packet times), which the header's duration is checked against. */
  duration_sec: number;
  /** The header's duration, only when it announces clearly more than the content holds (a file cut short). */
  header_duration_sec?: number;
  size_bytes: number | null;
  video: {
    codec: string;
    width: number;
    height: number;
    fps: number;
    rotation: number;
    /** Absent from probes made before colour was read. */
    color?: VideoColor;
    /**
     * A pixel's width over its height as the file says to show it (8/9 for NTSC 4:3 DVD video,
     * 64/45 for PAL 16:9 DV); absent when square or unsaid (and from probes made before it was read).
     */
    sar?: number;
  } | null;
  /** The first audio stream; `streams`: how many the file has (absent from probes made before it was counted). */
  audio: { codec: string; sample_rate: number; channels: number; streams?: number } | null;
}

/** A recognised word with its time span and the engine's confidence (0..1). */
export interface TimedWord {
  word: string;
  start: number;
  end: number;
  confidence: number;
}

/** A stretch of time (speech from VAD, silence, an event). */
export interface TimeSegment {
  start: number;
  end: number;
}

/** Pitch and energy tracks of the speech, one value per frame of `frame_sec`. */
export interface ProsodyTrack {
  frame_sec: number;
  /** Fundamental frequency in Hz, null where unvoiced. */
  pitch_hz: Array<number | null>;
  /** Frame energy in dBFS. */
  energy_db: number[];
}

/** What the speech-recognition step returns. */
export interface AsrOutput {
  /** Engine that produced the words: `faster-whisper`, `pocketsphinx`. */
  engine: string;
  /** Model the engine used (e.g. `faster-whisper-base`, `pocketsphinx-en-us`), when known. */
  model?: string;
  words: TimedWord[];
  /** What the caller should know about these words (e.g. the fallback engine was used). */
  warnings?: string[];
  /** Silences the engine itself reported (pocketsphinx `<sil>`), when it has them. */
  silences?: TimeSegment[];
  /** The spoken language the words are in (a Whisper code, ISO 639-1); null without speech. */
  language?: string | null;
  /** The recogniser's probability for `language` when it detected it; null when it was requested. */
  language_probability?: number | null;
}

/** A 2-D/3-D point in pixels of the sampled frame (z relative, engine units). */
export type Point = [x: number, y: number, z?: number];

export interface Keypoint {
  x: number;
  y: number;
  score: number;
}

/** One sampled frame as the vision engines saw it. Left/right are the person's own. */
export interface FrameObservation {
  time: number;
  width: number;
  height: number;
  /** Body keypoints by MoveNet/COCO name (nose, left_shoulder, right_wrist, left_hip...). */
  pose: { score: number; keypoints: Record<string, Keypoint> } | null;
  hands: Array<{ side: 'left' | 'right' | 'unknown'; score: number; landmarks: Point[] }>;
  face: {
    score: number;
    box: [x: number, y: number, w: number, h: number];
    /** MediaPipe face-mesh points (468, or 478 with iris), in frame pixels. */
    mesh: Point[];
    /** Head pose in radians as the engine reports it. */
    rotation: { roll: number; yaw: number; pitch: number } | null;
    emotion: Array<{ emotion: string; score: number }>;
  } | null;
}

/** Hand shape labels (as `gesture_left/right` in the result). */
export type HandGesture = 'open_hand' | 'pinch_or_point' | 'none';

/** One detected hand reduced to what the analytics read (src/analytics/visual/compact.ts). */
export interface CompactHand {
  /** The detector's side; the analytics re-assign sides from the pose wrists. */
  side: 'left' | 'right' | 'unknown';
  score: number;
  /** Centre of the landmarks' bounding box, px. */
  centre: [x: number, y: number];
  /** Apparent palm length, px (`palmSize`): the hand's reach toward the camera. */
  palm: number;
  /** Shape from the 21 landmarks (`classifyGesture`). */
  gesture: HandGesture;
}

/** One face reduced to its measurements (all from the mesh, before any per-clip normalisation). */
export interface CompactFace {
  score: number;
  box: [x: number, y: number, w: number, h: number];
  /** Raw eye aspect ratio (`eyeAspectRatio`); null without measurable eyes. */
  ear: number | null;
  /** Eye-in-head gaze from the iris, degrees (`irisAngles`); null without iris points. */
  iris: { x: number; y: number } | null;
  rotation: { roll: number; yaw: number; pitch: number } | null;
  /** Mouth in inter-ocular distances (`mouthMetrics`); null without the mouth points. */
  mouth: { width: number; open: number; lift: number } | null;
  /** Top emotion label (`topEmotion`). */
  emotion: string;
}

/**
 * A `FrameObservation` reduced to the numbers the visual analytics need (~0.7 KB of JSON and
 * ~1.3 KB of JS heap instead of ~7 KB and ~40 KB): what the container's `/vision` route streams
 * and the Worker keeps per frame. Deriving the video section from it gives exactly the same result as
 * from the full observation, for every `VisualOptions`.
 */
export interface CompactFrame {
  /** Format marker: tells a compact frame from a full `FrameObservation` on the wire. */
  compact: 1;
  time: number;
  width: number;
  height: number;
  /** The pose's overall score and the keypoints the analytics read (unfiltered by score). */
  pose: { score: number; keypoints: Record<string, Keypoint> } | null;
  hands: CompactHand[];
  face: CompactFace | null;
}

/** What the vision step may hand to the analytics: full or compact frames. */
export type VisionFrame = FrameObservation | CompactFrame;
