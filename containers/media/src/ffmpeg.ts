/**
 * @module containers/media/ffmpeg
 * The one wrapper around native ffmpeg/ffprobe processes. Every child process is disposable,
 * its stderr tail is kept for error messages, and a failed run rejects with `FfmpegError`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { ProbeResult } from '../../../src/contract/media.js';

export const FFMPEG_BIN = process.env.FFMPEG_PATH ?? 'ffmpeg';
export const FFPROBE_BIN = process.env.FFPROBE_PATH ?? 'ffprobe';
const STDERR_TAIL_BYTES = 4_000;

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

export interface MediaProcess extends Disposable {
  child: ChildProcessWithoutNullStreams;
  /** Resolves when the process exits with 0; rejects with FfmpegError otherwise. */
  done: Promise<void>;
  dispose(): void;
}

/** Starts `bin args...`; the caller owns stdin/stdout. */
export function spawnMedia(bin: string, args: string[], signal?: AbortSignal): MediaProcess {
  const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
  });
  // A consumer that stops reading early must not crash us with EPIPE.
  child.stdin.on('error', () => {});
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', (err) => reject(new FfmpegError(`${bin} could not start: ${err.message}`, null, stderr)));
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new FfmpegError(`${bin} exited with code ${code}: ${lastLine(stderr)}`, code, stderr));
    });
  });
  done.catch(() => {}); // observed by whoever awaits it
  const dispose = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  signal?.addEventListener('abort', dispose, { once: true });
  return { child, done, dispose, [Symbol.dispose]: dispose };
}

export const spawnFfmpeg = (args: string[], signal?: AbortSignal) =>
  spawnMedia(FFMPEG_BIN, ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args], signal);

/** Runs a process to completion and returns its stdout as text. */
export async function runToText(bin: string, args: string[], signal?: AbortSignal): Promise<string> {
  using proc = spawnMedia(bin, args, signal);
  proc.child.stdin.end();
  const chunks: Buffer[] = [];
  proc.child.stdout.on('data', (c: Buffer) => chunks.push(c));
  await proc.done;
  return Buffer.concat(chunks).toString('utf8');
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n').filter(Boolean);
  return lines.at(-1) ?? 'no diagnostic output';
}

/** Probes a local file. Throws FfmpegError when ffprobe cannot read it as media. */
export async function probeFile(path: string, signal?: AbortSignal): Promise<ProbeResult> {
  const json = await runToText(
    FFPROBE_BIN,
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path],
    signal,
  );
  return parseProbe(JSON.parse(json));
}

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
  tags?: Record<string, string>;
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
          rotation: Number(v.tags?.rotate ?? v.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? 0),
        }
      : null,
    audio: a
      ? { codec: a.codec_name ?? 'unknown', sample_rate: Number(a.sample_rate ?? 0), channels: a.channels ?? 0 }
      : null,
  };
}

function parseRate(rate: string | undefined): number {
  if (!rate) return 0;
  const [num, den] = rate.split('/').map(Number);
  if (!den) return Number.isFinite(num) ? num : 0;
  return num / den;
}
