/**
 * @module containers/media/core/ffmpeg
 * The one wrapper around native ffmpeg/ffprobe (and every other child) process. Every child
 * process is disposable, its stderr tail is kept for error messages, and a failed run rejects
 * with `FfmpegError`. Every child is bounded (ARCHITECTURE "Bounded work"):
 * - it runs in its own process group, and dispose kills the whole group (SIGKILL);
 * - the request's work scope (work-scope.ts: DELETE of the job, client gone, wall-clock
 *   deadline) and the caller's signal abort it;
 * - long work (over `MEDIA_LONG_WORK_SEC`, 60 s of media) runs at nice 19, and a key with several
 *   jobs here at nice 5 per further job (reniced as more arrive), so other keys' jobs get the CPU
 *   first (the nice value is set on the child's session autogroup too: priority.ts);
 * - it is killed when it shows no sign of life (no byte on stdout or stderr) for
 *   `MEDIA_IDLE_TIMEOUT_SEC` (ffmpeg prints its progress line every 0.5 s, so a silent ffmpeg is
 *   stuck, not busy).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Writable } from 'node:stream';
import type { ProbeResult } from '../../../src/contract/media.js';
import type { ChannelMix } from '../../../src/contract/media-protocol.js';
import { mediaConfig } from './config.js';
import { lowerPriority } from './priority.js';
import { videoColor } from './video-color.js';
import { venvFfmpeg } from './venv.js';
import { currentNice, currentScope, WorkAbortedError } from './work-scope.js';

/**
 * `FFMPEG_PATH`, else the environment's static ffmpeg 9 (`venvFfmpeg`), else the one on PATH.
 * ffprobe always comes from PATH (the package ships no ffprobe).
 */
export const FFMPEG_BIN = mediaConfig().core.ffmpegPath ?? venvFfmpeg() ?? 'ffmpeg';
export const FFPROBE_BIN = mediaConfig().core.ffprobePath;
const STDERR_TAIL_BYTES = 4_000;
/** A child silent this long is stuck: killed, and the work fails. Default 120 s. */
export const IDLE_TIMEOUT_MS = mediaConfig().core.idleTimeoutSec * 1000;

export class FfmpegError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderrTail: string,
  ) {
    super(message);
    this.name = 'FfmpegError';
  }
}

/** A child was stopped by a limit (deadline, inactivity) or by DELETE; the message is plain. */
export class WorkLimitError extends FfmpegError {
  constructor(
    readonly why: WorkAbortedError['why'] | 'idle',
    message: string,
  ) {
    super(message, null, '');
    this.name = 'WorkLimitError';
  }
}

export interface MediaProcess extends Disposable {
  child: ChildProcessWithoutNullStreams;
  /** Writable pipes beyond stdin, on fds 3, 4, … (`SpawnOptions.extraInputs`): `pipe:3` to ffmpeg. */
  inputs: Writable[];
  /** Resolves when the process exits with 0; rejects with FfmpegError otherwise. */
  done: Promise<void>;
  dispose(): void;
}

export interface SpawnOptions {
  /**
   * Kill after this long without output. Default `IDLE_TIMEOUT_MS`; `Infinity` for a child that
   * only answers requests (it watches its own answers: `record-process.ts`).
   */
  idleMs?: number;
  /** Input pipes beyond stdin (fds 3, 4, …). Default 0. */
  extraInputs?: number;
  /** Called with the output time (s) of each ffmpeg progress line (`-stats`): how far an encode is. */
  onProgress?: (sec: number) => void;
}

/**
 * Pure: the output time, in seconds, of the last progress line in `text` (ffmpeg's `-stats`:
 * `frame=  250 fps= 98 … time=00:00:10.00 bitrate=…`), or null when it has none yet (`time=N/A`).
 * @example statsTimeSec('frame=  25 fps=0.0 q=28.0 size=  0KiB time=00:00:01.00 bitrate=…\r') // 1
 */
export function statsTimeSec(text: string): number | null {
  const all = [...text.matchAll(/time=(\d+):(\d{2}):(\d{2}(?:\.\d+)?)/g)];
  const last = all.at(-1);
  return last ? Number(last[1]) * 3600 + Number(last[2]) * 60 + Number(last[3]) : null;
}

/** Starts `bin args...`; the caller owns stdin/stdout. */
export function spawnMedia(
  bin: string,
  args: string[],
  signal?: AbortSignal,
  { idleMs = IDLE_TIMEOUT_MS, extraInputs = 0, onProgress }: SpawnOptions = {},
): MediaProcess {
  // Its own process group: a kill reaches whatever the child started too.
  const stdio = Array<'pipe'>(3 + extraInputs).fill('pipe');
  const child = spawn(bin, args, { stdio, detached: true }) as ChildProcessWithoutNullStreams;
  const inputs = child.stdio.slice(3) as Writable[];
  const scope = currentScope();
  // Long work yields the CPU to short jobs (one job never delays another key's by much).
  const nice = currentNice(scope);
  if (nice && child.pid !== undefined) lowerPriority(child.pid, nice);
  // Tracked while alive: when its key sends more work, it is reniced (work-scope `reniceTenant`).
  if (scope && child.pid !== undefined) scope.children.set(child.pid, nice);
  let stderr = '';
  let stopped: WorkLimitError | null = null;
  let idle: NodeJS.Timeout | undefined;
  const alive = () => {
    clearTimeout(idle);
    if (!Number.isFinite(idleMs)) return;
    idle = setTimeout(
      () =>
        stop(
          new WorkLimitError(
            'idle',
            `${shortName(bin)} stopped making progress for ${Math.round(idleMs / 1000)} s`,
          ),
        ),
      idleMs,
    );
    idle.unref();
  };
  alive();
  // Output is a sign of life too, but a 'data' listener would switch stdout to flowing mode and
  // hand every byte to it before the caller attaches its own reader (audio extraction streamed
  // the rest and lost the start). So watch what the pipe pushes into the stream's buffer instead.
  const push = child.stdout.push.bind(child.stdout);
  child.stdout.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk !== null) alive();
    return push(chunk, encoding);
  };
  child.stderr.on('data', (chunk: Buffer) => {
    alive();
    const text = chunk.toString('utf8');
    if (onProgress) {
      const sec = statsTimeSec(text);
      if (sec !== null) onProgress(sec);
    }
    // Progress lines end in "\r": signs of life, not diagnostics.
    stderr = (stderr + text).replace(/[^\r\n]*\r(?!\n)/g, '').slice(-STDERR_TAIL_BYTES);
  });
  // A consumer that stops reading early must not crash us with EPIPE.
  for (const input of [child.stdin, ...inputs]) input.on('error', () => {});
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', (err) =>
      reject(new FfmpegError(`${bin} could not start: ${err.message}`, null, stderr)),
    );
    child.on('close', (code) => {
      clearTimeout(idle);
      if (child.pid !== undefined) scope?.children.delete(child.pid);
      detach();
      if (stopped) reject(stopped);
      else if (code === 0) resolve();
      else reject(new FfmpegError(`${bin} exited with code ${code}: ${lastLine(stderr)}`, code, stderr));
    });
  });
  done.catch(() => {}); // observed by whoever awaits it
  const kill = () => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  };
  const stop = (why: WorkLimitError) => {
    stopped ??= why;
    if (scope) scope.limitHit ??= why.message;
    kill();
  };
  const onScopeAbort = () => {
    const reason = scope?.signal.reason;
    stop(
      reason instanceof WorkAbortedError
        ? new WorkLimitError(reason.why, reason.message)
        : new WorkLimitError('client_gone', 'the work was cancelled'),
    );
  };
  const detach = () => {
    signal?.removeEventListener('abort', kill);
    scope?.signal.removeEventListener('abort', onScopeAbort);
  };
  // A signal that fired before this spawn (a render aborted between two stages) stops it at once.
  if (signal?.aborted) kill();
  else signal?.addEventListener('abort', kill, { once: true });
  if (scope?.signal.aborted) onScopeAbort();
  else scope?.signal.addEventListener('abort', onScopeAbort, { once: true });
  const dispose = () => {
    clearTimeout(idle);
    kill();
  };
  return { child, inputs, done, dispose, [Symbol.dispose]: dispose };
}

const shortName = (bin: string) => bin.split('/').pop() ?? bin;

/**
 * Pure: the `-af` of one audio candidate, for `POST /audio` and supplied speech
 * (render/speech-audio.ts). On the file's timeline: an audio stream that starts late is preceded by
 * silence, so result times are a player's. `side`: half the first channel less the second, the
 * voice of a stereo file whose second channel is recorded phase-inverted (their average cancels
 * it). The edge decode makes the same (wasm/ffmpeg/extract-pcm.ts, which imports nothing of ours).
 */
export const channelMixFilter = (mix: ChannelMix): string =>
  mix === 'side' ? 'aresample=first_pts=0,pan=mono|c0=0.5*c0-0.5*c1' : 'aresample=first_pts=0';

/** ffmpeg with the house flags; `-stats` keeps a progress line coming, which the idle timer watches. */
export const spawnFfmpeg = (args: string[], signal?: AbortSignal, options?: SpawnOptions) =>
  spawnMedia(
    FFMPEG_BIN,
    ['-hide_banner', '-nostdin', '-loglevel', 'error', '-stats', ...args],
    signal,
    options,
  );

/** Runs a process to completion and returns its stdout as text. */
export async function runToText(bin: string, args: string[], signal?: AbortSignal): Promise<string> {
  return (await runWithLog(bin, args, signal)).stdout;
}

/**
 * Runs a process to completion: its stdout as text, and the start of its diagnostics (stderr, at
 * most LOG_HEAD_CHARS: ffprobe says what it had to guess while it reads the header, before its answer).
 */
export async function runWithLog(
  bin: string,
  args: string[],
  signal?: AbortSignal,
): Promise<{ stdout: string; log: string }> {
  using proc = spawnMedia(bin, args, signal);
  proc.child.stdin.end();
  const chunks: Buffer[] = [];
  let log = '';
  proc.child.stdout.on('data', (c: Buffer) => chunks.push(c));
  proc.child.stderr.on('data', (c: Buffer) => {
    if (log.length < LOG_HEAD_CHARS) log += c.toString('utf8').slice(0, LOG_HEAD_CHARS - log.length);
  });
  await proc.done;
  return { stdout: Buffer.concat(chunks).toString('utf8'), log };
}
const LOG_HEAD_CHARS = 64 * 1024;

function lastLine(text: string): string {
  const lines = text.trim().split('\n').filter(Boolean);
  return lines.at(-1) ?? 'no diagnostic output';
}

/**
 * Probes a local file: ffprobe for the streams and, beside it, the real duration from the content
 * (the packets' own times, `measureContentDuration`), never from the container header alone: a header
 * can claim 4294967 s for 5 s of video. Throws FfmpegError when ffprobe cannot read it as media.
 * `inputArgs` go before the input (a raw PCM format).
 */
export async function probeFile(
  path: string,
  signal?: AbortSignal,
  inputArgs: string[] = [],
): Promise<ProbeResult> {
  // The demux pass runs beside ffprobe (two short processes at once: ≈ 0.05 s sooner on 60 s of
  // 720p, and every job waits for its probe); it is stopped when ffprobe fails, and its answer
  // unused for a file without streams.
  const beside = new AbortController();
  const measuring = measureContentDuration(
    path,
    signal ? AbortSignal.any([signal, beside.signal]) : beside.signal,
    inputArgs,
  );
  measuring.catch(() => {}); // awaited below when the file has streams
  try {
    const { stdout: json, log } = await runWithLog(
      FFPROBE_BIN,
      ['-v', 'warning', '-print_format', 'json', '-show_format', '-show_streams', ...inputArgs, path],
      signal,
    );
    const probe = parseProbe(JSON.parse(json));
    if (!probe.video && !probe.audio) return probe;
    const measured = await measuring;
    // A duration guessed from the bitrate announces nothing: the file has no header that says it.
    const announced = isBitrateGuess(log) ? null : cutShortFrom(probe.duration_sec, measured);
    return {
      ...probe,
      duration_sec: contentDuration(probe.duration_sec, measured),
      ...(announced === null ? {} : { header_duration_sec: announced }),
    };
  } finally {
    beside.abort();
  }
}

/**
 * The end time of the last packet of the first video and audio streams, read by demuxing (no
 * decoding: ~1 s per GB). Null when there are no packets.
 */
export async function measureContentDuration(
  path: string,
  signal?: AbortSignal,
  inputArgs: string[] = [],
): Promise<number | null> {
  const text = await runToText(
    FFMPEG_BIN,
    [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      ...inputArgs,
      '-i',
      path,
      '-map',
      '0:v:0?',
      '-map',
      '0:a:0?',
      '-c',
      'copy',
      '-f',
      'null',
      '-progress',
      'pipe:1',
      '-nostats',
      '-',
    ],
    signal,
  );
  const times = [...text.matchAll(/^out_time_us=(\d+)$/gm)].map((m) => Number(m[1]));
  const last = times.at(-1);
  return last && last > 0 ? last / 1e6 : null;
}

/**
 * Pure: the duration to believe. The header's is kept when the content agrees with it (it
 * counts the last frame's own length, which the packet times miss); otherwise the content's.
 */
export function contentDuration(headerSec: number, measuredSec: number | null): number {
  if (measuredSec === null) return 0;
  const agrees = headerSec >= measuredSec && headerSec <= measuredSec + HEADER_SLACK_SEC;
  return agrees ? headerSec : measuredSec;
}
/** The header may exceed the last packet's time by about one frame or audio packet; 1 s is generous. */
const HEADER_SLACK_SEC = 1;

/**
 * Pure: whether ffprobe's log says the duration is its guess from the bitrate: a stream with no
 * header that counts its frames (an MP3 without a Xing or VBRI header, ADTS AAC, raw AC-3). A
 * variable-bitrate MP3 that starts quietly is then "80 s" for 14 s of sound, yet whole.
 * @example isBitrateGuess('[mp3 @ 0x5648] Estimating duration from bitrate, this may be inaccurate\n') // true
 */
export const isBitrateGuess = (log: string): boolean => /Estimating duration from bitrate/.test(log);

/**
 * Pure: the header's duration when it announces clearly more than the content holds (past the
 * slack and 5 % of the content): a file cut short, as an interrupted upload or copy leaves it.
 * Null otherwise.
 */
export function cutShortFrom(headerSec: number, measuredSec: number | null): number | null {
  if (measuredSec === null || measuredSec <= 0) return null;
  const slack = Math.max(HEADER_SLACK_SEC, CUT_SHORT_FRACTION * measuredSec);
  return headerSec > measuredSec + slack ? headerSec : null;
}
const CUT_SHORT_FRACTION = 0.05;

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
  sample_aspect_ratio?: string;
  tags?: Record<string, string>;
  color_range?: string;
  color_space?: string;
  color_transfer?: string;
  color_primaries?: string;
  side_data_list?: Array<{ rotation?: number }>;
  disposition?: { attached_pic?: number };
}

/** Pure: turns ffprobe's JSON into our ProbeResult. */
export function parseProbe(raw: {
  format?: { format_name?: string; duration?: string; size?: string };
  streams?: FfprobeStream[];
}): ProbeResult {
  const streams = raw.streams ?? [];
  const v = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const a = streams.find((s) => s.codec_type === 'audio');
  const durations = [raw.format?.duration, v?.duration, a?.duration]
    .map((d) => Number(d))
    .filter((d) => Number.isFinite(d) && d > 0);
  return {
    format: raw.format?.format_name ?? 'unknown',
    duration_sec: durations[0] ?? 0,
    size_bytes: raw.format?.size ? Number(raw.format.size) : null,
    video: v
      ? {
          codec: v.codec_name ?? 'unknown',
          width: v.width ?? 0,
          height: v.height ?? 0,
          fps: parseRate(v.avg_frame_rate) || parseRate(v.r_frame_rate),
          rotation: Number(
            v.tags?.rotate ?? v.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? 0,
          ),
          color: videoColor(v),
          ...pixelAspectOf(v.sample_aspect_ratio),
        }
      : null,
    audio: a
      ? {
          codec: a.codec_name ?? 'unknown',
          sample_rate: Number(a.sample_rate ?? 0),
          channels: a.channels ?? 0,
          streams: streams.filter((s) => s.codec_type === 'audio').length,
        }
      : null,
  };
}

/**
 * Pure: `{ sar }` of ffprobe's `sample_aspect_ratio` ("8:9"), or nothing when the pixels are square,
 * unsaid ("0:1", "N/A") or outside 1/4–4 (no camera or disc stretches further; a forged value
 * would make the render's picture absurdly wide).
 * @example pixelAspectOf('8:9') // { sar: 0.8888888888888888 }
 */
export function pixelAspectOf(ratio: string | undefined): { sar?: number } {
  const [num, den] = (ratio ?? '').split(':').map(Number);
  const sar = num / den;
  return Number.isFinite(sar) && sar !== 1 && sar >= 0.25 && sar <= 4 ? { sar } : {};
}

function parseRate(rate: string | undefined): number {
  if (!rate) return 0;
  const [num, den] = rate.split('/').map(Number);
  if (!den) return Number.isFinite(num) ? num : 0;
  return num / den;
}
