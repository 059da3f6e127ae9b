/**
 * @module
 * Any common container/codec → 16 kHz mono signed 16-bit PCM, with ffmpeg.wasm inside the
 * Worker. Everything happens in memory (emscripten MEMFS), so this is for inputs within the
 * edge budget; larger ones go to the media container's native ffmpeg.
 */
import { discardFFmpegCore, getFFmpegCore, type FFmpegCoreModule } from './core.js';
import { EdgeBudgetError, MediaDecodeError } from './errors.js';
import { EDGE_AUDIO_MAX_BYTES, EDGE_AUDIO_MAX_SEC, PCM_SAMPLE_RATE_HZ } from './limits.js';
import { parseInputStreams } from './probe-log.js';

export { EDGE_AUDIO_MAX_BYTES, EDGE_AUDIO_MAX_SEC, PCM_SAMPLE_RATE_HZ };

/** How many of ffmpeg's last log lines an error keeps. */
const ERROR_LOG_LINES = 20;

export interface ExtractPcmOptions {
  /** Largest accepted input in bytes. Default {@link EDGE_AUDIO_MAX_BYTES} (32 MiB). */
  maxBytes?: number;
  /** Longest accepted audio in seconds. Default {@link EDGE_AUDIO_MAX_SEC} (600 s). */
  maxDurationSec?: number;
  /**
   * Hand `input`'s memory to ffmpeg's in-memory file system instead of copying it (saves
   * one input-sized buffer). The caller must not modify `input` while the call runs.
   * Default `true`.
   */
  transferInput?: boolean;
  /**
   * How the channels become one: `mid` (their average, ffmpeg's own downmix) or `side` (half
   * the first less the second: the voice of a stereo file whose second channel is recorded
   * phase-inverted, which the average cancels). Default `mid`.
   */
  mix?: ChannelMix;
  /** Which audio stream, 0-based among the audio streams. Default 0, the first. */
  stream?: number;
}

/** How a stereo file's channels are mixed to mono (see {@link ExtractPcmOptions.mix}). */
export type ChannelMix = 'mid' | 'side';

export interface PcmAudio {
  /** Mono samples at {@link PCM_SAMPLE_RATE_HZ}; empty when the input has no audio. */
  pcm: Int16Array;
  sampleRate: typeof PCM_SAMPLE_RATE_HZ;
  /** `pcm.length / sampleRate`. */
  durationSec: number;
  /** Whether the input had an audio stream (a silent video gives `false` and empty pcm). */
  hasAudio: boolean;
  /** Whether the input had a video stream. */
  hasVideo: boolean;
}

let callCounter = 0;

/**
 * Decodes the first audio stream of `input` to 16 kHz mono s16 PCM.
 *
 * @throws {EdgeBudgetError} when the input is over `maxBytes` or its audio over `maxDurationSec`.
 * @throws {MediaDecodeError} when ffmpeg cannot read the input.
 * @example
 * const bytes = new Uint8Array(await (await env.BUCKET.get(key))!.arrayBuffer());
 * const { pcm, hasAudio } = await extractPcm16k(bytes);
 */
export async function extractPcm16k(input: Uint8Array, options: ExtractPcmOptions = {}): Promise<PcmAudio> {
  const {
    maxBytes = EDGE_AUDIO_MAX_BYTES,
    maxDurationSec = EDGE_AUDIO_MAX_SEC,
    transferInput = true,
  } = options;
  if (input.byteLength > maxBytes) {
    throw new EdgeBudgetError(
      `input is ${input.byteLength} bytes, over the edge budget of ${maxBytes}`,
      'bytes',
    );
  }
  const core = await getFFmpegCore();
  // Unique names: nothing awaits between write and read, but a failed call must not leave
  // a file that a later call could mistake for its own.
  const id = ++callCounter;
  const inPath = `/in-${id}`;
  const outPath = `/out-${id}.pcm`;
  const log: string[] = [];
  core.setLogger(({ message }) => log.push(message));
  try {
    core.FS.writeFile(inPath, input, { canOwn: transferInput });
    core.reset();
    let exitCode: number;
    try {
      exitCode = core.exec(...decodeArgs(inPath, outPath, maxDurationSec, options.mix, options.stream));
    } catch (error) {
      // An exception out of the runtime (not ffmpeg's own exit) may have corrupted it.
      discardFFmpegCore();
      throw new MediaDecodeError('ffmpeg.wasm crashed while decoding', log.slice(-ERROR_LOG_LINES), {
        cause: error,
      });
    }
    const streams = parseInputStreams(log);
    if (exitCode !== 0) {
      // `-map 0:a:0?` on a file without audio leaves ffmpeg with no output stream; that
      // is an answer ("no audio"), not a failure.
      if (streams.audio === 0 && log.some((line) => line.startsWith('Input #0'))) {
        return {
          pcm: new Int16Array(0),
          sampleRate: PCM_SAMPLE_RATE_HZ,
          durationSec: 0,
          hasAudio: false,
          hasVideo: streams.video > 0,
        };
      }
      throw new MediaDecodeError(`ffmpeg.wasm exited with code ${exitCode}`, log.slice(-ERROR_LOG_LINES));
    }
    const pcm = takePcm(core, outPath);
    if (pcm.length > maxDurationSec * PCM_SAMPLE_RATE_HZ) {
      throw new EdgeBudgetError(`audio is longer than the edge budget of ${maxDurationSec} s`, 'duration');
    }
    return {
      pcm,
      sampleRate: PCM_SAMPLE_RATE_HZ,
      durationSec: pcm.length / PCM_SAMPLE_RATE_HZ,
      hasAudio: true,
      hasVideo: streams.video > 0,
    };
  } finally {
    core.setLogger(() => {});
    removeFile(core, inPath);
    removeFile(core, outPath);
  }
}

/**
 * The ffmpeg arguments (after the core's own `-nostdin -y`). `-vn -sn -dn` skip decoding
 * anything but audio; `-t` stops one sample past the budget, so an over-long input is
 * detected without decoding all of it. `aresample=first_pts=0` puts the samples on the file's
 * timeline: an audio stream that starts after the file does (a screen recording whose
 * microphone track begins 3 s in) is preceded by that much silence, so every time in a result
 * is the time a player shows. Kept identical to the native reference in tests and to the
 * container's `POST /audio`.
 */
export function decodeArgs(
  inPath: string,
  outPath: string,
  maxDurationSec: number,
  mix: ChannelMix = 'mid',
  stream = 0,
): string[] {
  return [
    '-hide_banner',
    '-i',
    inPath,
    '-map',
    `0:a:${Number.isInteger(stream) && stream >= 0 ? stream : 0}?`,
    '-vn',
    '-sn',
    '-dn',
    '-af',
    mix === 'side' ? `aresample=first_pts=0,${SIDE_MIX_FILTER}` : 'aresample=first_pts=0',
    '-ac',
    '1',
    '-ar',
    String(PCM_SAMPLE_RATE_HZ),
    '-c:a',
    'pcm_s16le',
    '-f',
    's16le',
    '-t',
    String(maxDurationSec + 1 / PCM_SAMPLE_RATE_HZ),
    outPath,
  ];
}

/** The side mix (as the container's `POST /audio` makes it with `x-audio-mix: side`: containers/media/core/ffmpeg.ts `channelMixFilter`). */
const SIDE_MIX_FILTER = 'pan=mono|c0=0.5*c0-0.5*c1';

/**
 * Takes the decoded samples out of MEMFS without copying: MEMFS keeps a file as one
 * growable Uint8Array starting at offset 0, so an Int16Array view over its used part is
 * valid, and after the unlink the view is its only owner.
 */
function takePcm(core: FFmpegCoreModule, path: string): Int16Array {
  const { contents, usedBytes } = core.FS.lookupPath(path).node;
  if (!contents || usedBytes === 0) return new Int16Array(0);
  const sampleCount = usedBytes >> 1;
  if (contents.byteOffset % 2 !== 0) return new Int16Array(contents.slice(0, sampleCount * 2).buffer);
  return new Int16Array(contents.buffer, contents.byteOffset, sampleCount);
}

function removeFile(core: FFmpegCoreModule, path: string): void {
  if (core.FS.analyzePath(path).exists) core.FS.unlink(path);
}
