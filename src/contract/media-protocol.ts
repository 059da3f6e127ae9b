/**
 * @module contract/media-protocol
 * The Worker ↔ media container protocol: the paths the Worker calls, the headers both sides
 * exchange, and the PCM format of the speech audio. One definition each; the Worker's client
 * (`src/media/client.ts`) and the container's routes (`containers/media`) both import them, and
 * a unit test checks that every route the container serves is one of `MEDIA_ROUTES`.
 */

/** The container's routes, as Hono patterns (`:name` is a path parameter). */
export const MEDIA_ROUTES = {
  health: '/health',
  ping: '/ping',
  /** GET: jobs with work here; the Worker never calls it (tests, operators). */
  jobs: '/jobs',
  /** DELETE: stop every running piece of the job's work, and remove its stored source. */
  job: '/jobs/:id',
  /**
   * PUT media: the job's source, kept in the container for the job's later requests (they send
   * `storedSource` instead of the file), so the file crosses once per job.
   */
  jobSource: '/jobs/:id/source',
  probe: '/probe',
  /** POST media → PCM in `PCM_FORMAT`. */
  audio: '/audio',
  /** POST PCM in `PCM_FORMAT` → words. */
  asr: '/asr',
  align: '/align',
  vision: '/vision',
  tts: '/tts',
  render: '/render',
  /** GET: the probe of the source by the job's render (the job is `x-job-id`). */
  renderProbe: '/render/probe',
  renderProgress: '/render/progress/:job',
  renderSpeech: '/render/speech/:job',
} as const;

export type MediaRoute = (typeof MEDIA_ROUTES)[keyof typeof MEDIA_ROUTES];

const withParam = (route: string, value: string) => route.replace(/:[a-z]+/, () => encodeURIComponent(value));

/** The paths the Worker calls: a route with its parameter filled in. */
export const mediaPath = {
  job: (jobId: string) => withParam(MEDIA_ROUTES.job, jobId),
  jobSource: (jobId: string) => withParam(MEDIA_ROUTES.jobSource, jobId),
  renderProgress: (jobId: string) => withParam(MEDIA_ROUTES.renderProgress, jobId),
  renderSpeech: (jobId: string) => withParam(MEDIA_ROUTES.renderSpeech, jobId),
  vision: (fps?: number) => (fps ? `${MEDIA_ROUTES.vision}?fps=${fps}` : MEDIA_ROUTES.vision),
};

/** The header names both sides exchange (lower case, as `Headers` gives them). */
export const MEDIA_HEADERS = {
  /** The job a request works for: `DELETE /jobs/{id}` stops it; admission orders by it. */
  jobId: 'x-job-id',
  /** The job's tenant: the container shares its CPU fairly between tenants. */
  tenantId: 'x-tenant-id',
  /** Longest media accepted (seconds): the Worker's limit, applied by the container's probe. */
  maxMediaDurationSec: 'x-max-media-duration-sec',
  /** The request's wall-clock budget (ms), enforced on its child processes. */
  workBudgetMs: 'x-work-budget-ms',
  /** The longest the request may wait for its key's turn (ms); the Worker's fetch allows for it. */
  admissionWaitMs: 'x-admission-wait-ms',
  /** The media's duration (seconds), once probed. */
  mediaDurationSec: 'x-media-duration-sec',
  /** The upload's file name (URI-encoded) and content type: pick the demuxer of headerless input. */
  sourceFilename: 'x-source-filename',
  sourceContentType: 'x-source-content-type',
  /**
   * `1`: the request's media is the job's stored source (`PUT /jobs/{id}/source` by the same job
   * and tenant), not its body. When it is not there the answer is 404 `SOURCE_MISSING`.
   */
  storedSource: 'x-stored-source',
  /** `PUT /jobs/{id}/source`: the largest upload the Worker accepts (bytes); a larger source is a 413. */
  maxSourceBytes: 'x-max-source-bytes',
  /**
   * `POST /audio`: how the channels become one, `mid` (their average; the default) or `side` (half
   * the first less the second: the voice of a stereo file with one channel phase-inverted).
   */
  audioMix: 'x-audio-mix',
  /** `POST /audio`: which audio stream, 0-based among the audio streams (default 0, the first). */
  audioStream: 'x-audio-stream',
  /** `POST /asr`: VAD speech segments, JSON `[{start,end}]` seconds. */
  speechSegments: 'x-speech-segments',
  /** `POST /asr`: the spoken language when the client set it (a Whisper code); else detected. */
  speechLanguage: 'x-speech-language',
  /** `POST /render`'s answer: the render report (ASCII JSON, `contract/render.ts` `RenderReport`). */
  renderReport: 'x-render-report',
  /** `POST /tts`'s answer: which engine and voice spoke, notes (JSON array), duration (s). */
  ttsEngine: 'x-tts-engine',
  ttsVoice: 'x-tts-voice',
  ttsNotes: 'x-tts-notes',
  audioDuration: 'x-audio-duration',
} as const;

/**
 * The error code of a request that names the job's stored source when the container has none for
 * the job and tenant (it restarted, swept it, or is another instance): the Worker sends it again.
 */
export const SOURCE_MISSING = 'source_not_stored';

/** The speech audio between the two sides (`POST /audio` answers it, `POST /asr` takes it): raw PCM. */
export const PCM_FORMAT = {
  sampleRateHz: 16_000,
  channels: 1,
  /** Signed 16-bit little-endian (ffmpeg's `s16le`). */
  encoding: 's16le',
  bytesPerSample: 2,
} as const;

/** How `POST /audio` mixes a stereo file's channels to mono (`MEDIA_HEADERS.audioMix`). */
export type ChannelMix = 'mid' | 'side';

/** Which audio `POST /audio` decodes: an audio stream (0-based among them) and its mix. */
export interface AudioChoice {
  stream: number;
  mix: ChannelMix;
}

/** `MEDIA_HEADERS.audioStream` is read as 0 outside 0..this. */
export const MAX_AUDIO_STREAM_INDEX = 63;

/** Bytes of one second of `PCM_FORMAT` audio. */
export const PCM_BYTES_PER_SEC = PCM_FORMAT.sampleRateHz * PCM_FORMAT.channels * PCM_FORMAT.bytesPerSample;

/** The content type of `PCM_FORMAT` audio (RFC 3551's L16, with its rate and channels). */
export const PCM_CONTENT_TYPE = `audio/L16; rate=${PCM_FORMAT.sampleRateHz}; channels=${PCM_FORMAT.channels}`;
