/**
 * @module containers/media/engines/frame-pipeline/ffmpeg-args
 * Pure builders of the decoder and encoder command lines of one render. The encoder is the
 * only encode: it takes the video either straight from the source file (no per-frame edits),
 * or as raw yuv420p frames that Node edited, plus an optional low-resolution mask stream when
 * blurring (upscaled by the encoder), the audio and the caption track.
 */
import { mediaConfig } from '../../core/config.js';
import type { RenderPlan } from './plan.js';

/**
 * x264 preset: `veryfast` below 1280×720; `superfast` from 720p up, where veryfast alone takes
 * 40 s of wall per 60 s on 2 cores (superfast 24 s, files ~60 % larger at the same CRF).
 * `RENDER_X264_PRESET` overrides both. CRF 20 is visually clean.
 */
export function x264Preset(plan: Pick<RenderPlan, 'width' | 'height'>): string {
  return (
    mediaConfig().render.x264Preset ?? (plan.width * plan.height >= 1280 * 720 ? 'superfast' : 'veryfast')
  );
}
export const X264_CRF = 20;
export const AAC_BITRATE = '128k';
export const AUDIO_RATE_HZ = 48_000;
/**
 * The background is blurred at 1/BLUR_DOWNSCALE size: same look, a fraction of the cost. Upscaling
 * the blurred copy and the mask with fast_bilinear and overlaying in yuv420 (not `auto`, which
 * picks a 4:4:4 path) makes the blur graph much faster (figure in docs/benchmarks.md).
 */
export const BLUR_DOWNSCALE = 4;

export type VideoInput =
  /** The encoder decodes the source itself. */
  | { kind: 'file'; path: string; loop: boolean }
  /** Raw yuv420p frames of plan size on the encoder's stdin (what the decoder gave, edited). */
  | { kind: 'raw' };

export type MaskInput =
  | { kind: 'none' }
  /**
   * Masks of `width`×`height` as yuv420p (every plane is the mask, `yuv420pMask`), one per frame,
   * on stdin (`fd` 0, with a file video input) or on another pipe (`fd` 3, beside raw frames on
   * stdin), so the encoder scales them up and composites in its own pixel format (maskedmerge).
   */
  | { kind: 'pipe'; width: number; height: number; fd?: 0 | 3 };

export type AudioInput =
  /** New speech replaces the source audio. */
  | { kind: 'speech'; path: string }
  /**
   * The source audio, shifted: positive `lagSec` means the audio was late and is pulled earlier.
   * `codec` is the probe's, of the first track (AAC that nothing changes is copied:
   * `copiesSourceAudio`). `tracks`: how many of the source's audio tracks the output carries, in
   * their order (1 when absent; `keptAudioTracks`), each shifted alike.
   */
  | { kind: 'source'; path: string; lagSec: number; codec: string | null; tracks?: number }
  /** The source has no audio: a silent AAC track keeps players and the spec happy. */
  | { kind: 'silent' };

export interface EncodeSpec {
  plan: RenderPlan;
  video: VideoInput;
  mask: MaskInput;
  audio: AudioInput;
  /** WebVTT file for a mov_text subtitle track. */
  captionsPath?: string;
  output: string;
  /** Largest output file (ffmpeg `-fs`); unbounded when absent. */
  maxBytes?: number;
}

/**
 * The blur radius (at the downscaled size) that reads as "clearly blurred" at any resolution. boxblur
 * refuses a radius above half the (chroma) plane, so small pictures get a smaller one: with 2 a
 * 16-pixel side failed the filter graph ("Invalid argument") on every attempt.
 */
export function blurRadius(plan: RenderPlan): number {
  const side = Math.min(plan.width, plan.height) / BLUR_DOWNSCALE;
  return Math.max(1, Math.min(Math.max(2, Math.round(side / 30)), Math.floor(side / 4)));
}

/**
 * Pure: a `setparams` filter (with its trailing comma) that tags raw pictures with the source's
 * colour description, or '' when the source says nothing. Raw frames carry no tags: without this a
 * full-range or HDR (HLG, PQ) source came out untagged from the frames path, read as limited-range
 * BT.709 by players (contrast or colours off), while the file path kept the tags.
 */
export function colorTags(color: RenderPlan['color']): string {
  if (!color) return '';
  const params = [
    color.range && `range=${color.range}`,
    color.primaries && `color_primaries=${color.primaries}`,
    color.transfer && `color_trc=${color.transfer}`,
    color.space && `colorspace=${color.space}`,
  ].filter(Boolean);
  return params.length ? `setparams=${params.join(':')},` : '';
}

/**
 * Pure: whether the output carries the source's own AAC packets as they are: the source plays once
 * (no loop, no trim), unshifted, and its audio is AAC already. Re-encoding it (resampled to 48 kHz)
 * cost ≈ 1.1 CPU-s per minute and a generation of quality, for the same sound. A copied track is
 * as long as the source's, where the re-encoded one is padded to the video's length.
 */
export const copiesSourceAudio = ({ plan, audio }: Pick<EncodeSpec, 'plan' | 'audio'>): boolean =>
  audio.kind === 'source' &&
  audio.lagSec === 0 &&
  audio.codec === 'aac' &&
  (audio.tracks ?? 1) === 1 &&
  plan.fit === 'source';

/**
 * Most audio tracks of a source an output carries. A screen recording keeps the microphone and the
 * computer's sound apart, a film its languages; past this many a file is more likely hostile (each
 * kept track is one more encode).
 */
export const MAX_OUTPUT_AUDIO_TRACKS = 8;

/** Pure: how many of a source's `streams` audio tracks an output keeps (at least the first). */
export const keptAudioTracks = (streams: number | undefined): number =>
  Math.max(1, Math.min(streams ?? 1, MAX_OUTPUT_AUDIO_TRACKS));

/** Arguments of the single encoding ffmpeg (after spawnFfmpeg's common flags). */
export function encoderArgs(spec: EncodeSpec): string[] {
  const { plan, video, mask, audio } = spec;
  const { width: W, height: H, fps } = plan;
  // The graph's filters on the graph's own thread: slice threads (one per core by default) beside
  // x264's and the decoder's cost ≈ 1.5 CPU-s more per minute of blurred 720p, for the same bytes.
  const args: string[] = ['-y', '-filter_complex_threads', '1'];
  const filters: string[] = [];
  let next = 0;

  // Input 0: video.
  if (video.kind === 'file') {
    if (video.loop) args.push('-stream_loop', '-1');
    // One decoding thread when the source is no larger than the output: x264 needs several times
    // the decoder's time for the same pictures, so frame threads only add their own overhead
    // (docs/benchmarks.md "Blur speed and quality").
    if (plan.decodeLoad <= 1) args.push('-threads', '1');
    args.push('-i', video.path);
    filters.push(`[0:v]fps=${fps},scale=${W}:${H}:flags=bicubic,setsar=1[base]`);
  } else {
    args.push('-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', `${W}x${H}`, '-r', String(fps), '-i', 'pipe:0');
    filters.push(`[0:v]${colorTags(plan.color)}setsar=1[base]`);
  }
  next++;

  // Optional mask stream.
  let maskLabel: string | null = null;
  if (mask.kind === 'pipe') {
    const fd = mask.fd ?? 0;
    if (video.kind === 'raw' && fd === 0) throw new Error('encoderArgs: raw frames already use stdin');
    args.push(
      '-f',
      'rawvideo',
      '-pix_fmt',
      'yuv420p',
      '-s',
      `${mask.width}x${mask.height}`,
      '-r',
      String(fps),
      '-i',
      `pipe:${fd}`,
    );
    maskLabel = `[${next}:v]`;
    next++;
  }

  // Audio.
  let audioIndex: number;
  if (audio.kind === 'speech') {
    args.push('-i', audio.path);
    audioIndex = next++;
  } else if (audio.kind === 'source') {
    if (video.kind === 'file' && video.path === audio.path && !video.loop) audioIndex = 0;
    else {
      args.push('-vn', '-i', audio.path);
      audioIndex = next++;
    }
  } else {
    args.push('-f', 'lavfi', '-i', `anullsrc=r=${AUDIO_RATE_HZ}:cl=mono`);
    audioIndex = next++;
  }

  let captionsIndex: number | null = null;
  if (spec.captionsPath) {
    args.push('-i', spec.captionsPath);
    captionsIndex = next++;
  }

  // Video graph.
  const blurred = `scale=iw/${BLUR_DOWNSCALE}:ih/${BLUR_DOWNSCALE}:flags=fast_bilinear,boxblur=lr=${blurRadius(plan)}:lp=2,scale=${W}:${H}:flags=fast_bilinear`;
  if (mask.kind === 'pipe') {
    // All in yuv420p: no alpha plane, no RGBA, the sharp/blurred mix per plane at the frame's size.
    filters.push(
      `[base]format=yuv420p,split[sharp][bgsrc]`,
      `[bgsrc]${blurred}[bg]`,
      `${maskLabel}scale=${W}:${H}:flags=fast_bilinear[m]`,
    );
    filters.push(`[bg][sharp][m]maskedmerge[vout]`);
  } else {
    filters.push(`[base]format=yuv420p[vout]`);
  }

  // Audio graph: resample, shift for lip sync, pad so audio never ends before the video, and
  // never beyond it: an unbounded apad runs as long as the longest `-t` (a forged one too).
  const copyAudio = copiesSourceAudio(spec);
  const shift =
    audio.kind === 'source' && audio.lagSec > 0
      ? `atrim=start=${audio.lagSec.toFixed(4)},asetpts=PTS-STARTPTS,`
      : audio.kind === 'source' && audio.lagSec < 0
        ? `adelay=${Math.round(-audio.lagSec * 1000)}:all=1,`
        : '';
  // Every kept track of the source alike (a multi-track source is never copied: its tracks' codecs
  // are not probed one by one); new speech and silence are one track.
  const tracks = audio.kind === 'source' ? (audio.tracks ?? 1) : 1;
  const audioOuts = Array.from({ length: tracks }, (_, k) => `[aout${k}]`);
  if (!copyAudio)
    audioOuts.forEach((label, k) =>
      filters.push(
        `[${audioIndex}:a:${k}]${shift}aresample=${AUDIO_RATE_HZ},apad=whole_dur=${plan.durationSec.toFixed(3)}${label}`,
      ),
    );

  args.push('-filter_complex', filters.join(';'));
  args.push('-map', '[vout]');
  if (copyAudio) args.push('-map', `${audioIndex}:a:0`);
  else for (const label of audioOuts) args.push('-map', label);
  if (captionsIndex !== null) {
    args.push('-map', `${captionsIndex}:s`, '-c:s', 'mov_text', '-metadata:s:s:0', 'language=eng');
  }
  args.push(
    '-c:v',
    'libx264',
    '-preset',
    x264Preset(plan),
    '-crf',
    String(X264_CRF),
    '-pix_fmt',
    'yuv420p',
    '-r',
    String(fps),
    ...(copyAudio ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', AAC_BITRATE]),
    '-t',
    plan.durationSec.toFixed(3),
    ...(spec.maxBytes ? ['-fs', String(Math.floor(spec.maxBytes))] : []),
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    spec.output,
  );
  return args;
}

/**
 * Arguments of the decoder that feeds Node raw frames of plan size (yuv420p for edits, RGB for masks).
 * `rough`: frames for a model at a small size, where the deblocking filter and exact IDCT rounding
 * (`-flags2 +fast`) are invisible, decoded on one thread (no frame-thread overhead; the model is
 * slower than the decoder anyway), scaled by area averaging (cheaper than bicubic; fast_bilinear
 * aliases a 3× downscale and cost the hair edge 14 % of its sharpness in bench/processing/blur-quality).
 * `skip`: frames the decoder does not decode (`-skip_frame`): `noref`, those no other frame refers
 * to (most B-frames); `bidir`, every B-frame. The fps filter fills each gap with the frame before,
 * so every output frame is still there (a repeat: the blur masks, docs/benchmarks.md "Blur speed
 * and quality"), and it runs after the scaler, which then scales only the decoded frames (same
 * bytes, ≈ 0.4 CPU-s less per minute of 720p).
 * `everyNth`: only output frames 0, N, 2N, … of the fps filter's sequence (scaled and piped; the
 * others are decoded and dropped), the same frames the full sequence holds at those indices.
 */
export function decoderArgs(
  source: string,
  plan: RenderPlan,
  {
    loop,
    width = plan.width,
    height = plan.height,
    pixFmt = 'rgba',
    rough = false,
    skip,
    everyNth = 1,
  }: {
    loop: boolean;
    width?: number;
    height?: number;
    pixFmt?: 'rgba' | 'rgb24' | 'yuv420p';
    rough?: boolean;
    skip?: 'noref' | 'bidir';
    everyNth?: number;
  },
): string[] {
  const args: string[] = [];
  if (loop) args.push('-stream_loop', '-1');
  if (rough) args.push('-threads', '1', '-skip_loop_filter', 'all', '-flags2', '+fast');
  if (skip) args.push('-skip_frame', skip);
  args.push('-i', source, '-an', '-sn', '-t', plan.durationSec.toFixed(3));
  const fps = everyNth > 1 ? `fps=${plan.fps},select=not(mod(n\\,${everyNth}))` : `fps=${plan.fps}`;
  const scale = `scale=${width}:${height}:flags=${rough ? 'area' : 'bicubic'},format=${pixFmt}`;
  // Skipping frames, the fps filter's repeats are copies of frames already scaled: scale first.
  const vf = skip ? `${scale},${fps}` : `${fps},${scale}`;
  args.push('-vf', vf);
  // Selected frames go out as they are: a constant-rate muxer would fill the gaps with repeats.
  if (everyNth > 1) args.push('-fps_mode', 'passthrough');
  args.push('-f', 'rawvideo', 'pipe:1');
  return args;
}
