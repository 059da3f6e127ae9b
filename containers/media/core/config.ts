/**
 * @module containers/media/core/config
 * Every environment variable the media container reads, parsed once into one typed, frozen object
 * (docs/configuration.md lists them). Unset or blank means the default. A value that cannot be
 * meant (a word where a number is needed, a number out of range, an unknown engine or preset, a
 * flag other than 0 or 1) is an error at start that names the variable and the accepted form: a
 * typo must not quietly run the service with the default.
 *
 * `configFrom(env)` is pure (tests build their own); `mediaConfig()` is the process's, parsed from
 * `process.env` on first use, which the entry point makes the start of the service. Engines get
 * their slice as a parameter or read it here; nothing else reads `process.env`.
 */
import { z } from 'zod';
import {
  DEFAULT_MAX_MEDIA_DURATION_SEC,
  WORK_BUDGET_BASE_SEC,
  WORK_BUDGET_PER_MEDIA_SEC,
} from '../../../src/contract/media.js';

/** An environment: `process.env`, or a test's own record. */
export type EnvRecord = Readonly<Record<string, string | undefined>>;

/** A variable set to a value that cannot be meant; the message names it and its accepted form. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid media container configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/** Blank counts as unset (`Number('')` is 0, and `FOO=` in a shell means "no value"). */
const unset = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const raw = z.preprocess(unset, z.string().optional());

/** Text, or `fallback` when unset. */
const text = <F extends string | undefined = undefined>(fallback?: F) =>
  raw.transform((v): string | F => v?.trim() ?? (fallback as F));

interface Range {
  /** Inclusive bounds. */
  min?: number;
  max?: number;
  /** Exclusive lower bound (a positive number: `above: 0`). */
  above?: number;
  int?: boolean;
}

const describe = ({ min, max, above, int }: Range): string => {
  const kind = int ? 'a whole number' : 'a number';
  if (above !== undefined && max !== undefined) return `${kind} above ${above} and at most ${max}`;
  if (above !== undefined) return `${kind} above ${above}`;
  if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`;
  if (min !== undefined) return `${kind} ≥ ${min}`;
  return kind;
};

const inRange = (n: number, { min, max, above, int }: Range): boolean =>
  Number.isFinite(n) &&
  (!int || Number.isInteger(n)) &&
  (min === undefined || n >= min) &&
  (max === undefined || n <= max) &&
  (above === undefined || n > above);

/** A number in `range`, or `fallback` when unset. */
const number = <F extends number | undefined = undefined>(range: Range, fallback?: F) =>
  raw.transform((v, ctx): number | F => {
    if (v === undefined) return fallback as F;
    const n = Number(v);
    if (inRange(n, range)) return n;
    ctx.addIssue({ code: 'custom', message: `must be ${describe(range)}` });
    return z.NEVER;
  });

/** `1` or `0` (on or off), or `fallback` when unset. */
const flag = (fallback: boolean) =>
  raw.transform((v, ctx) => {
    if (v === undefined) return fallback;
    if (v.trim() === '1') return true;
    if (v.trim() === '0') return false;
    ctx.addIssue({ code: 'custom', message: 'must be 1 (on) or 0 (off)' });
    return z.NEVER;
  });

/** One of `values` (case as written), or `fallback` when unset. */
const oneOf = <const T extends readonly [string, ...string[]], F extends T[number] | undefined>(
  values: T,
  fallback: F,
) =>
  raw.transform((v, ctx): T[number] | F => {
    if (v === undefined) return fallback;
    const found = values.find((x) => x === v.trim());
    if (found) return found;
    ctx.addIssue({ code: 'custom', message: `must be one of ${values.join(', ')}` });
    return z.NEVER;
  });

/** An absolute http(s) URL, or undefined when unset. */
const url = raw.transform((v, ctx) => {
  if (v === undefined) return undefined;
  try {
    const parsed = new URL(v.trim());
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return v.trim();
  } catch {
    // reported below
  }
  ctx.addIssue({ code: 'custom', message: 'must be an absolute http(s) URL' });
  return z.NEVER;
});

/** A comma-separated list (blank items dropped). */
const list = raw.transform((v) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

/** x264's presets (`-preset`), fastest first. */
export const X264_PRESETS = [
  'ultrafast',
  'superfast',
  'veryfast',
  'faster',
  'fast',
  'medium',
  'slow',
  'slower',
  'veryslow',
  'placebo',
] as const;

/** The variables, by their names; each maps to one field of `MediaConfig` below. */
const variables = z.object({
  // server
  PORT: number({ min: 0, max: 65535, int: true }),
  CONTAINER_PORT: number({ min: 0, max: 65535, int: true }),
  HOST: text('0.0.0.0'),
  MEDIA_JOBS_PER_KEY: number({ min: 1, int: true }),
  MEDIA_HOLD_MS: number({ min: 0 }, 2000),
  MEDIA_HOLD_RUN_MS: number({ min: 0 }, 250),
  MEDIA_HOLD_LINGER_MS: number({ min: 0 }, 1000),
  // core
  FFMPEG_PATH: text(),
  FFPROBE_PATH: text('ffprobe'),
  MEDIA_IDLE_TIMEOUT_SEC: number({ above: 0 }, 120),
  MEDIA_REQUEST_BUDGET_MS: number({ above: 0 }, 3_600_000),
  MEDIA_LONG_WORK_SEC: number({ above: 0 }, 60),
  MEDIA_BURST_MEMORY_SEC: number({ above: 0 }, 60),
  MEDIA_SOURCE_TTL_SEC: number({ above: 0 }, 3600),
  MAX_MEDIA_DURATION_SEC: number({ above: 0 }, DEFAULT_MAX_MEDIA_DURATION_SEC),
  NATIVE_VISION: flag(true),
  // speech recognition
  ASR_ENGINE: raw.transform((v, ctx) => {
    const kind = (v ?? 'auto').trim().toLowerCase();
    if (kind === 'auto' || kind === 'faster-whisper' || kind === 'pocketsphinx') return kind;
    ctx.addIssue({ code: 'custom', message: 'must be one of auto, faster-whisper, pocketsphinx' });
    return z.NEVER;
  }),
  PYTHON_VENV: text(),
  WHISPER_MODEL_DIR: text(),
  WHISPER_BEAM_SIZE: number({ min: 1, int: true }),
  ASR_WORKERS: number({ min: 1, int: true }, 2),
  POCKETSPHINX_MODEL_DIR: text('/usr/share/pocketsphinx/model/en-us'),
  POCKETSPHINX_BATCH_PATH: text('pocketsphinx_batch'),
  // speech synthesis
  TTS_PRELOAD: flag(true),
  PIPER_VOICE_DIR: text(),
  PIPER_THREADS: number({ min: 1, max: 8, int: true }, 2),
  ESPEAK_PATH: text('espeak-ng'),
  ELEVENLABS_BASE_URL: url,
  ELEVENLABS_API_KEY: text(),
  ELEVENLABS_MODEL_ID: text(),
  ELEVENLABS_VOICE_ID: text(),
  ELEVENLABS_OUTPUT_FORMAT: text(),
  // render
  RENDER_X264_PRESET: oneOf(X264_PRESETS, undefined),
  RENDER_MAX_OUTPUT_BYTES: number({ above: 0, int: true }, 8 * 2 ** 30),
  RENDER_BUDGET_BASE_SEC: number({ above: 0 }, WORK_BUDGET_BASE_SEC),
  RENDER_BUDGET_FACTOR: number({ above: 0 }, WORK_BUDGET_PER_MEDIA_SEC),
  RENDER_PROBE_WAIT_MS: number({ above: 0 }, 60_000),
  SEGMENTATION_MODEL: oneOf(['selfie', 'meet'], 'selfie'),
  BLUR_MASKS_PER_SEC: number({ above: 0 }, 2),
  BLUR_MOTION_DRIFT: number({ above: 0 }, 20),
  BLUR_MOTION_LOCAL: number({ min: 0 }, 80),
  BLUR_MOTION_JUMP: number({ above: 0 }, 20),
  BLUR_MASK_DECODE: oneOf(['noref', 'bidir', 'all'], 'noref'),
  BLUR_LANDSCAPE_MODEL: flag(true),
  EDIT_MESH_EVERY_NTH: number({ min: 1, max: 6, int: true }, 3),
  FACE_MESH_THREAD: flag(false),
  ANALYSIS_MESH_LANES: number({ min: 1, max: 2, int: true }, 2),
  SYNC_API_URL: url,
  SYNC_API_KEY: text(),
  SYNC_OUTPUT_HOSTS: list,
  GAZE_SERVICE_URL: url,
  GAZE_SERVICE_KEY: text(),
  // visual analytics
  VISION_FPS: number({ above: 0, max: 30 }, 2),
  VISION_THREADS: number({ min: 1, int: true }),
  VISION_NICE: number({ min: 0, max: 19, int: true }, 10),
  VISION_PRELOAD: flag(true),
  VISION_WRIST_CROPS: flag(true),
  VISION_CLOSEUP_HANDS: flag(true),
  VISION_EDGE_WRISTS_EVERY_NTH: number({ min: 1, max: 10, int: true }, 3),
  VISION_FACE_CROPS: flag(true),
  VISION_FAST_DECODE: flag(false),
  VISION_FACE_TRACKING: flag(false),
  VISION_HANDS: oneOf(['visible-wrist', 'always'], 'visible-wrist'),
  VISION_FACE_DETECTOR: oneOf(['blazeface-front', 'blazeface'], 'blazeface-front'),
  VISION_HAND_DETECTOR: oneOf(['handtrack', 'handdetect'], 'handtrack'),
});

/** Every variable the container reads (docs/configuration.md's container table, the entry's PORT/HOST). */
export const MEDIA_VARIABLES = Object.keys(variables.shape) as readonly (keyof typeof variables.shape)[];

type Vars = z.output<typeof variables>;

/** Where the service listens, and how it shares its cores between keys (server/). */
export interface ServerConfig {
  port: number;
  host: string;
  /** `MEDIA_JOBS_PER_KEY`: undefined → half the cores (admission.ts). */
  jobsPerKey: number | undefined;
  holdMs: number;
  holdRunMs: number;
  holdLingerMs: number;
}

/** The ground floor: child processes, work scopes, media limits, the native vision runtime. */
export interface CoreConfig {
  /** `FFMPEG_PATH`; undefined → the venv's static ffmpeg, else `ffmpeg` on PATH. */
  ffmpegPath: string | undefined;
  ffprobePath: string;
  idleTimeoutSec: number;
  requestBudgetMs: number;
  longWorkSec: number;
  burstMemorySec: number;
  /** A job's stored source unused this long is removed (the Worker never ended the job here). */
  sourceTtlSec: number;
  maxMediaDurationSec: number;
  nativeVision: boolean;
}

export interface AsrConfig {
  engine: 'auto' | 'faster-whisper' | 'pocketsphinx';
  /** Undefined → `<repo>/.venv`. */
  pythonVenv: string | undefined;
  /** Undefined → `<venv>/models/faster-whisper-base`. */
  whisperModelDir: string | undefined;
  /** Undefined → the engine's default (5). */
  beamSize: number | undefined;
  workers: number;
  pocketsphinxModelDir: string;
  pocketsphinxBatchPath: string;
}

export interface ElevenLabsConfig {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  modelId: string | undefined;
  voiceId: string | undefined;
  outputFormat: string | undefined;
}

export interface TtsConfig {
  preload: boolean;
  /** Undefined → the venv's en_US-joe-medium voice. */
  piperVoiceDir: string | undefined;
  piperThreads: number;
  espeakPath: string;
  elevenLabs: ElevenLabsConfig;
}

/** The blur's key masks and mask decoder. */
export interface BlurConfig {
  masksPerSec: number;
  motionDrift: number;
  /** Undefined: `BLUR_MOTION_LOCAL=0`, the local-motion keys are off. */
  motionLocal: number | undefined;
  motionJump: number;
  maskDecode: 'noref' | 'bidir' | 'all';
  landscapeModel: boolean;
}

export interface RenderConfig {
  /** Undefined → veryfast below 1280×720, superfast from 720p up. */
  x264Preset: (typeof X264_PRESETS)[number] | undefined;
  maxOutputBytes: number;
  budgetBaseSec: number;
  budgetFactor: number;
  probeWaitMs: number;
  segmentationModel: 'selfie' | 'meet';
  blur: BlurConfig;
  meshEveryNth: number;
  faceMeshThread: boolean;
  analysisMeshLanes: 1 | 2;
  /** The lip-sync provider, or null when `SYNC_API_URL` is unset. */
  sync: { baseUrl: string; apiKey: string | undefined; outputHosts: string[] } | null;
  /** The remote gaze service, or null when `GAZE_SERVICE_URL` is unset. */
  gazeService: { baseUrl: string; apiKey: string | undefined } | null;
}

/** The vision engine (engines/vision): sampling, its threads, and which Human passes run. */
export interface VisionConfig {
  /**
   * Sampled frames per second. On 2 cores a talking-head frame costs ≈ 70 CPU ms plus ≈ 15 ms of
   * decode, so the default 2 puts 60 s of 720p at ≈ 6 s of two free cores, beside speech
   * recognition in the same job, and still catches any gesture held for ≥ 0.5 s.
   */
  fps: number;
  /** Worker threads of the vision pool; undefined → the CPU count. */
  threads: number | undefined;
  /** Nice value of the vision threads and their decoder (engines/vision/priority.ts). */
  nice: number;
  /** Start the vision workers with the service (each costs ≈ 3.5 CPU-s to start), not at the first request. */
  preload: boolean;
  /** Re-run the hand model on a crop around each visible wrist the full-frame pass found no hand for. */
  wristCrops: boolean;
  /** Also look for close-up hands on frames with neither a wrist nor a face in view. */
  closeupHands: boolean;
  /** Hand passes on one sample in this many where the only wrists are on the bottom edge. */
  edgeWristsEveryNth: number;
  /** A second face pass on a crop around the pose's head when the whole frame gave no face. */
  faceCrops: boolean;
  /**
   * Skip the decoder's deblocking filter. Off by default: on the labelled media it moved gaze
   * labels the wrong way and lowered eye openness for little CPU saved (docs/benchmarks.md
   * "Figures behind choices in the code").
   */
  fastDecode: boolean;
  /**
   * Track the face between a worker's frames instead of detecting it on every one. Off by
   * default: on the labelled media tracking moved 3 of 75 gaze labels the wrong way for ≈ 20 CPU
   * ms per frame saved (docs/benchmarks.md "Visual analytics speed").
   */
  faceTracking: boolean;
  /**
   * When the hand model runs: `visible-wrist` only where the pose shows a wrist a hand could be
   * attached to; `always` on every frame (≈ 70 CPU ms more per frame without a wrist in view).
   */
  hands: 'visible-wrist' | 'always';
  /**
   * `blazeface-front` (the short-range model on 128²) is ≈ 15–20 CPU ms less per frame than the
   * full-range `blazeface` (256²) on the 60 s talking head, with the same labelled scores once a
   * missed face is looked for again on a head crop (`faceCrops`); the full-range model finds
   * small faces on the whole frame (docs/benchmarks.md "Visual analytics speed").
   */
  faceDetector: 'blazeface-front' | 'blazeface';
  handDetector: 'handtrack' | 'handdetect';
}

export interface MediaConfig {
  server: ServerConfig;
  core: CoreConfig;
  asr: AsrConfig;
  tts: TtsConfig;
  render: RenderConfig;
  vision: VisionConfig;
}

const slices = (v: Vars): MediaConfig => ({
  server: {
    port: v.PORT ?? v.CONTAINER_PORT ?? 8788,
    host: v.HOST,
    jobsPerKey: v.MEDIA_JOBS_PER_KEY,
    holdMs: v.MEDIA_HOLD_MS,
    holdRunMs: v.MEDIA_HOLD_RUN_MS,
    holdLingerMs: v.MEDIA_HOLD_LINGER_MS,
  },
  core: {
    ffmpegPath: v.FFMPEG_PATH,
    ffprobePath: v.FFPROBE_PATH,
    idleTimeoutSec: v.MEDIA_IDLE_TIMEOUT_SEC,
    requestBudgetMs: v.MEDIA_REQUEST_BUDGET_MS,
    longWorkSec: v.MEDIA_LONG_WORK_SEC,
    burstMemorySec: v.MEDIA_BURST_MEMORY_SEC,
    sourceTtlSec: v.MEDIA_SOURCE_TTL_SEC,
    maxMediaDurationSec: v.MAX_MEDIA_DURATION_SEC,
    nativeVision: v.NATIVE_VISION,
  },
  asr: {
    engine: v.ASR_ENGINE,
    pythonVenv: v.PYTHON_VENV,
    whisperModelDir: v.WHISPER_MODEL_DIR,
    beamSize: v.WHISPER_BEAM_SIZE,
    workers: v.ASR_WORKERS,
    pocketsphinxModelDir: v.POCKETSPHINX_MODEL_DIR,
    pocketsphinxBatchPath: v.POCKETSPHINX_BATCH_PATH,
  },
  tts: {
    preload: v.TTS_PRELOAD,
    piperVoiceDir: v.PIPER_VOICE_DIR,
    piperThreads: v.PIPER_THREADS,
    espeakPath: v.ESPEAK_PATH,
    elevenLabs: {
      baseUrl: v.ELEVENLABS_BASE_URL,
      apiKey: v.ELEVENLABS_API_KEY,
      modelId: v.ELEVENLABS_MODEL_ID,
      voiceId: v.ELEVENLABS_VOICE_ID,
      outputFormat: v.ELEVENLABS_OUTPUT_FORMAT,
    },
  },
  render: {
    x264Preset: v.RENDER_X264_PRESET,
    maxOutputBytes: v.RENDER_MAX_OUTPUT_BYTES,
    budgetBaseSec: v.RENDER_BUDGET_BASE_SEC,
    budgetFactor: v.RENDER_BUDGET_FACTOR,
    probeWaitMs: v.RENDER_PROBE_WAIT_MS,
    segmentationModel: v.SEGMENTATION_MODEL,
    blur: {
      masksPerSec: v.BLUR_MASKS_PER_SEC,
      motionDrift: v.BLUR_MOTION_DRIFT,
      motionLocal: v.BLUR_MOTION_LOCAL === 0 ? undefined : v.BLUR_MOTION_LOCAL,
      motionJump: v.BLUR_MOTION_JUMP,
      maskDecode: v.BLUR_MASK_DECODE,
      landscapeModel: v.BLUR_LANDSCAPE_MODEL,
    },
    meshEveryNth: v.EDIT_MESH_EVERY_NTH,
    faceMeshThread: v.FACE_MESH_THREAD,
    analysisMeshLanes: v.ANALYSIS_MESH_LANES === 1 ? 1 : 2,
    sync: v.SYNC_API_URL
      ? { baseUrl: v.SYNC_API_URL, apiKey: v.SYNC_API_KEY, outputHosts: v.SYNC_OUTPUT_HOSTS }
      : null,
    gazeService: v.GAZE_SERVICE_URL ? { baseUrl: v.GAZE_SERVICE_URL, apiKey: v.GAZE_SERVICE_KEY } : null,
  },
  vision: {
    fps: v.VISION_FPS,
    threads: v.VISION_THREADS,
    nice: v.VISION_NICE,
    preload: v.VISION_PRELOAD,
    wristCrops: v.VISION_WRIST_CROPS,
    closeupHands: v.VISION_CLOSEUP_HANDS,
    edgeWristsEveryNth: v.VISION_EDGE_WRISTS_EVERY_NTH,
    faceCrops: v.VISION_FACE_CROPS,
    fastDecode: v.VISION_FAST_DECODE,
    faceTracking: v.VISION_FACE_TRACKING,
    hands: v.VISION_HANDS,
    faceDetector: v.VISION_FACE_DETECTOR,
    handDetector: v.VISION_HAND_DETECTOR,
  },
});

const deepFreeze = <T>(value: T): T => {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
};

/**
 * Pure: the configuration `env` describes, frozen.
 * @throws ConfigError naming every variable whose value cannot be meant, with its accepted form.
 * @example configFrom({ MEDIA_HOLD_MS: '0' }).server.holdMs // → 0
 * @example configFrom({ PIPER_THREADS: 'two' }) // throws: PIPER_THREADS="two" must be a whole number from 1 to 8
 */
export function configFrom(env: EnvRecord): MediaConfig {
  const picked = Object.fromEntries(MEDIA_VARIABLES.map((name) => [name, env[name]]));
  const parsed = variables.safeParse(picked);
  if (!parsed.success)
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0]);
        return `${name}=${JSON.stringify(env[name])} ${issue.message}`;
      }),
    );
  return deepFreeze(slices(parsed.data));
}

let processConfig: MediaConfig | undefined;

/**
 * The service's configuration, parsed from `process.env` on first use (the entry point's first
 * line, so a bad value stops the start). A worker thread has its own module state: it parses its
 * copy of the environment (the parent's when the thread started) on its own first use.
 * @throws ConfigError (see `configFrom`).
 */
export const mediaConfig = (): MediaConfig => (processConfig ??= configFrom(process.env));

/** The environment a child process inherits (PATH, HOME, the Python and OpenMP settings), plus `extra`. */
export const childEnv = (extra: EnvRecord = {}): NodeJS.ProcessEnv => ({ ...process.env, ...extra });
