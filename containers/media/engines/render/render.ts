/**
 * @module containers/media/engines/render/render
 * One render as a sequence of stages that return data: prepare (probe, plan, budget) → audio
 * and offset → remote lip sync → captions (and the new speech's timed words, beside the
 * encode) → editor chain → runner → report. The runner is one
 * decode → per-frame work → one encode, in three shapes chosen by the chain:
 * - nothing to edit per frame: the encoder reads the source itself (normalize / speech swap);
 * - blur only: a decoder at mask size feeds the segmenter, masks are piped into the encoder,
 *   which composites the sharp source over a blurred copy (the measured fast recipe);
 * - gaze or mouth edits: yuv420p frames go decoder → Node editors (RGBA of the regions they
 *   edit) → encoder (+ low-res masks on fd 3).
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { mediaConfig, type BlurConfig } from '../../core/config.js';
import { spawnFfmpeg } from '../../core/ffmpeg.js';
import { yieldToOtherKeys } from '../../core/work-scope.js';
import { KeyMaskStream, MaskTracker, type KeyMaskOptions, type Segmenter } from '../segment/index.js';
import { editFrame, type FrameEditor, type YuvFrame } from '../frame-pipeline/editors.js';
import { badInput, engineFailure, RenderError } from './errors.js';
import {
  decoderArgs,
  encoderArgs,
  type EncodeSpec,
  type MaskInput,
  type VideoInput,
} from '../frame-pipeline/ffmpeg-args.js';
import { decodeSourceFrames } from '../frame-pipeline/source-frames.js';
import { readRecords, writeWithBackpressure, yuv420pMask } from '../frame-pipeline/frames.js';
import { downsampleYuv, FrameCanvas, yuv420pSize } from '../frame-pipeline/yuv.js';
import { RecordPool } from '../frame-pipeline/record-pool.js';
import type { RenderReport } from '../../../../src/contract/render.js';
import { chooseAudio, remoteLipSync } from './audio.js';
import { writeCaptionTrack } from './caption-track.js';
import { timeNewSpeech } from './speech-words.js';
import { buildEditorChain, type EditorChain } from './editor-chain.js';
import { mediaFailure } from './media-failure.js';
import { prepare } from './prepare.js';
import { RenderLog } from './render-log.js';
import { buildReport, type RunOutcome } from './report.js';
import type { RenderEngines, RenderInput, RenderResult } from './types.js';

export type { RenderEngines, RenderInput, RenderReport, RenderResult };

/**
 * Largest output file of a render (ffmpeg `-fs`): 64 MB + 4 MB per second of output (32 Mbit/s,
 * far above CRF 20 at 1080p), at most `RENDER_MAX_OUTPUT_BYTES` (8 GiB): a job's temp disk is bounded.
 */
export const outputBudgetBytes = (durationSec: number) =>
  Math.min(mediaConfig().render.maxOutputBytes, 64 * 2 ** 20 + 4 * 2 ** 20 * durationSec);

/**
 * Key masks per second in the blur paths (`BLUR_MASKS_PER_SEC`): the segmenter runs on one frame
 * in round(fps / this), the frames between get a blend of the two key masks around them. The
 * segmenter is the blur's largest cost after the encode (~60 ms of CPU per mask); its figures
 * are in docs/benchmarks.md "Blur speed and quality".
 */
export const BLUR_MASKS_PER_SEC = mediaConfig().render.blur.masksPerSec;
/**
 * Motion-aware keys: a frame whose 32² gray thumbnail differs from the last key's by more than
 * `BLUR_MOTION_DRIFT` (mean absolute, 0..255), or whose most-changed tenth differs by more than
 * `BLUR_MOTION_LOCAL` (a moving arm; `0` turns it off), is a key; a change over `BLUR_MOTION_JUMP`
 * between two frames (a cut, a fast move) keys both frames.
 */
export const blurKeyOptions = (
  fps: number,
  blur: BlurConfig = mediaConfig().render.blur,
): KeyMaskOptions => ({
  every: Math.max(1, Math.round(fps / blur.masksPerSec)),
  driftThreshold: blur.motionDrift,
  localDriftThreshold: blur.motionLocal,
  jumpThreshold: blur.motionJump,
});
/**
 * Frames the blur's mask decoder does not decode (`BLUR_MASK_DECODE`): `noref` (default), those no
 * other frame refers to (most B-frames: ≈ a third of its CPU); `bidir`, every B-frame (≈ half of
 * it, but the masks follow motion less closely: docs/benchmarks.md "Blur speed and quality");
 * `all` decodes every frame. A skipped frame's slot repeats the frame before and never becomes a
 * key (KeyMaskPlanner), so each key mask is of a decoded picture at its own time.
 */
export function maskDecoderSkip(
  setting: BlurConfig['maskDecode'] = mediaConfig().render.blur.maskDecode,
): 'bidir' | 'noref' | undefined {
  return setting === 'all' ? undefined : setting;
}
/** The blur's mask decoder: the render's rough decoder at the segmenter's size. */
export const maskDecoderArgs = (
  source: string,
  plan: EncodeSpec['plan'],
  loop: boolean,
  size: { width: number; height: number },
) => decoderArgs(source, plan, { loop, ...size, pixFmt: 'rgb24', rough: true, skip: maskDecoderSkip() });
/**
 * The frames path (blur with gaze or mouth edits) still holds each mask (MaskTracker: EMA, no
 * lookahead) at the former 4 masks per second: a held mask must not be older than 1/4 s.
 */
const HELD_MASKS_PER_SEC = 4;
const segmentEveryN = (fps: number) => Math.max(1, Math.round(fps / HELD_MASKS_PER_SEC));
/**
 * Frames the frames path holds back while the segmenter answers for a key frame: the answer
 * (≈ 5–8 ms) comes while the next frames are decoded and edited, where awaiting it at decode
 * left the render's thread idle 2.2–2.4 s per 992 frames of 720p.
 */
const SEGMENTER_LOOKAHEAD = 2;

/**
 * Renders `input` into `<workDir>/output.mp4`: a short sequence of stages that return data.
 * @example const { outputPath, report } = await renderVideo({ sourcePath, options, workDir }, engines);
 */
export async function renderVideo(input: RenderInput, engines: RenderEngines = {}): Promise<RenderResult> {
  const log = new RenderLog();
  const prepared = await prepare(input, log);
  const { audio, lipSync } = await chooseAudio(input, prepared, engines, log);
  const remote = await remoteLipSync(input, prepared, engines, log);
  // The caption alignment (on the alignment thread) runs beside the editors' set-up (the mouth
  // analysis); a transcription of the new speech runs beside the encode.
  const timing = timeNewSpeech(input, prepared, engines, log);
  const captionTrack = writeCaptionTrack(input, prepared, timing, log);
  captionTrack.catch(() => {}); // awaited below, once the chain is built
  using chain = await buildEditorChain(input, prepared, engines, log, {
    videoSource: remote?.videoPath ?? input.sourcePath,
    remoteLipSync: !!remote,
    lipSync: remote?.lipSync ?? lipSync,
  });
  const captions = await captionTrack;
  const outputPath = join(input.workDir, 'output.mp4');
  const { plan } = prepared;
  const spec: RunSpec = {
    plan,
    audio,
    captionsPath: captions?.path,
    output: outputPath,
    maxBytes: outputBudgetBytes(plan.durationSec),
    onEncoded: input.onProgress && ((sec) => input.onProgress!(Math.min(1, sec / plan.durationSec))),
  };
  // A remote lip-sync video already follows the speech's length: it is never looped.
  const loop = plan.fit === 'loop' && !remote;
  const run = await log.time('encode', () => runRender(chain, loop, spec, input.signal));
  await checkOutputSize(spec);
  const speech = await timing.speech;
  return { outputPath, report: buildReport(prepared, chain, captions, speech, run, log), speech };
}

/** What the runners encode (the encoder's arguments but its inputs), and who hears how far it got. */
type RunSpec = Omit<EncodeSpec, 'video' | 'mask'> & {
  /** The encoder's output time so far, in seconds (its progress lines). */
  onEncoded?: (sec: number) => void;
};

/** Stage 5: the pipeline shape the chain needs, run once: one decode, one encode. */
async function runRender(
  chain: EditorChain,
  loop: boolean,
  spec: RunSpec,
  signal?: AbortSignal,
): Promise<RunOutcome> {
  const { editors, segmenter, videoSource } = chain;
  const fps = spec.plan.fps;
  if (editors.length === 0 && !segmenter) {
    await runEncoder(
      { ...spec, video: { kind: 'file', path: videoSource, loop }, mask: { kind: 'none' } },
      signal,
    );
    return { path: 'passthrough' };
  }
  if (editors.length === 0 && segmenter) {
    const keys = blurKeyOptions(fps);
    const done = await runMaskPipe(videoSource, loop, spec, segmenter, keys, signal);
    return {
      path: 'mask-pipe',
      frames: done.frames,
      blur: {
        segmenter: segmenter.name,
        masks: done.keys,
        motion_keys: done.motionKeys,
        key_every: keys.every,
      },
    };
  }
  const tracker = segmenter ? new MaskTracker(segmenter, { everyNth: segmentEveryN(fps) }) : undefined;
  const frames = await runFramePipeline(videoSource, loop, spec, editors, tracker, signal);
  const blur =
    tracker && segmenter
      ? { segmenter: segmenter.name, masks: tracker.segmentations, segment_ms: Math.round(tracker.segmentMs) }
      : undefined;
  return { path: 'frames', frames, blur };
}

async function runEncoder(
  spec: RunSpec & Pick<EncodeSpec, 'video' | 'mask'>,
  signal?: AbortSignal,
): Promise<void> {
  using enc = spawnFfmpeg(encoderArgs(spec), signal, { onProgress: spec.onEncoded });
  enc.child.stdin.end();
  enc.child.stdout.resume();
  await enc.done.catch(wrapEncodeError);
}

/** ffmpeg's `-fs` stops writing at the budget and exits 0: a file that reached it is refused. */
async function checkOutputSize(spec: Pick<EncodeSpec, 'output' | 'maxBytes'>): Promise<void> {
  if (!spec.maxBytes) return;
  const { size } = await stat(spec.output);
  if (size >= spec.maxBytes * 0.99) {
    throw badInput(
      'output_too_large',
      `the processed video exceeded its size budget of ${Math.round(spec.maxBytes / 2 ** 20)} MB`,
    );
  }
}

/**
 * Blur only: small RGB frames → key masks (the segmenter process, key frames only, blends
 * between) → yuv420p masks → the encoder, which reads the source itself and composites.
 */
async function runMaskPipe(
  source: string,
  loop: boolean,
  spec: RunSpec,
  segmenter: Segmenter,
  keys: KeyMaskOptions,
  signal?: AbortSignal,
): Promise<{ frames: number; keys: number; motionKeys: number }> {
  const { inputWidth: mw, inputHeight: mh } = segmenter;
  const mask: MaskInput = { kind: 'pipe', width: mw, height: mh };
  const video: VideoInput = { kind: 'file', path: source, loop };
  using enc = spawnFfmpeg(encoderArgs({ ...spec, video, mask }), signal, { onProgress: spec.onEncoded });
  using dec = spawnFfmpeg(maskDecoderArgs(source, spec.plan, loop, { width: mw, height: mh }), signal);
  dec.child.stdin.end();
  enc.child.stdout.resume();
  let n = 0;
  // Mask pictures go back to the pool once the encoder pipe has taken them.
  const maskPool = new RecordPool(yuv420pSize(mw, mh), 8);
  const stream = new KeyMaskStream(segmenter, keys, async (m) => {
    const yuv = yuv420pMask(m, mw, mh, maskPool.take());
    await writeWithBackpressure(enc.child.stdin, yuv, () => maskPool.give(yuv));
    n++;
  });
  const perSecond = Math.max(1, Math.round(spec.plan.fps));
  let pushed = 0;
  const pump = async () => {
    for await (const rgb of readRecords(dec.child.stdout, mw * mh * 3)) {
      await stream.push(rgb);
      if (++pushed % perSecond === 0) await yieldToOtherKeys();
    }
    await stream.end();
    enc.child.stdin.end();
  };
  await settle(pump(), [dec, enc]);
  return { frames: n, keys: stream.keys, motionKeys: stream.motionKeys };
}

/**
 * Gaze/mouth edits: yuv420p frames → editors → encoder; when blurring, each frame's low-resolution
 * mask goes beside it on the encoder's fd 3 (the encoder scales it up in C: doing that here was
 * the largest cost of this thread, 7.5 ms per 720p frame).
 */
async function runFramePipeline(
  source: string,
  loop: boolean,
  spec: RunSpec,
  editors: FrameEditor[],
  tracker: MaskTracker | undefined,
  signal?: AbortSignal,
): Promise<number> {
  const { plan } = spec;
  const mask: MaskInput = tracker
    ? { kind: 'pipe', width: tracker.width, height: tracker.height, fd: 3 }
    : { kind: 'none' };
  using enc = spawnFfmpeg(encoderArgs({ ...spec, video: { kind: 'raw' }, mask }), signal, {
    extraInputs: tracker ? 1 : 0,
    onProgress: spec.onEncoded,
  });
  enc.child.stdout.resume();
  const [maskPipe] = enc.inputs;
  let n = 0;
  // Editors with lookahead see frames at decode time; frames wait in this bounded FIFO
  // (lookahead + 1 frames of memory) until every editor can edit them. A frame's mask waits
  // with it: masks and frames reach the encoder in lockstep, so neither pipe can stall the other.
  const lookahead = Math.max(tracker ? SEGMENTER_LOOKAHEAD : 0, ...editors.map((e) => e.lookahead ?? 0));
  const held: { frame: YuvFrame; mask?: Promise<Uint8Array> }[] = [];
  // Frame buffers go back to the reader once the encoder pipe has taken them.
  const pool = new RecordPool(yuv420pSize(plan.width, plan.height), lookahead + 8);
  // The masks' buffers too: the segmenter's input (free once its mask is back), the mask pictures.
  const [mw, mh] = tracker ? [tracker.width, tracker.height] : [0, 0];
  const smallPool = new RecordPool(mw * mh * 3, lookahead + 2);
  const maskPool = new RecordPool(yuv420pSize(mw, mh), 8);
  const canvas = new FrameCanvas(plan.width, plan.height);
  const emit = async ({ frame, mask }: { frame: YuvFrame; mask?: Promise<Uint8Array> }) => {
    await editFrame(editors, canvas, frame);
    if (mask) {
      const yuv = yuv420pMask(await mask, mw, mh, maskPool.take());
      await writeWithBackpressure(maskPipe, yuv, () => maskPool.give(yuv));
    }
    await writeWithBackpressure(enc.child.stdin, frame.yuv, () => pool.give(frame.yuv));
    n++;
  };
  let masks: Promise<unknown> = Promise.resolve();
  const pump = async () => {
    const decodeError = (err: unknown) => mediaFailure('media_unreadable', 'the video', err);
    for await (const frame of decodeSourceFrames(source, plan, { loop, pool, signal, decodeError })) {
      let m: Promise<Uint8Array> | undefined;
      if (tracker) {
        // Segment the unedited frame: edits are tiny and must not change the mask.
        const small = tracker.needsInput(frame.index) ? smallPool.take() : undefined;
        if (small) downsampleYuv(frame.yuv, plan.width, plan.height, mw, mh, small);
        // In frame order (the tracker smooths from mask to mask), awaited only when the frame is emitted.
        const index = frame.index;
        m = masks.then(() => tracker.next(index, small));
        // emit awaits it (a failure stops the render there); answered, the segmenter is done with `small`.
        m.then(
          () => small && smallPool.give(small),
          () => {},
        );
        masks = m;
      }
      for (const e of editors) if (e.observe) await e.observe(frame);
      held.push({ frame, mask: m });
      if (held.length > lookahead) await emit(held.shift()!);
      if ((frame.index + 1) % Math.max(1, Math.round(plan.fps)) === 0) await yieldToOtherKeys();
    }
    while (held.length) await emit(held.shift()!);
    maskPipe?.end();
    enc.child.stdin.end();
  };
  await settle(pump(), [enc]);
  return n;
}

type MediaProcess = { done: Promise<void>; dispose(): void };

/**
 * Waits for the pump and the processes (`[decoder, encoder]`, or the encoder alone when the pump
 * runs its decoders itself); the first failure wins and stops the others.
 */
async function settle(pump: Promise<void>, procs: [MediaProcess, MediaProcess] | [MediaProcess]) {
  const enc = procs[procs.length - 1];
  const dec = procs.length === 2 ? procs[0] : undefined;
  const all = [
    pump.catch((err) => {
      throw err instanceof RenderError
        ? err
        : engineFailure('render_failed', `frame pipeline: ${(err as Error).message}`, err);
    }),
    enc.done.catch(wrapEncodeError),
    ...(dec
      ? [
          dec.done.catch((err) => {
            throw mediaFailure('media_unreadable', 'the video', err);
          }),
        ]
      : []),
  ];
  try {
    await Promise.all(all);
  } catch (err) {
    for (const p of procs) p.dispose();
    const results = await Promise.allSettled(all);
    // A dead encoder shows up first as EPIPE in the pump (a 500); a process's own failure, or
    // the pump's decoders' (a 422), is the precise one. The decoder's goes before the encoder's.
    const precise = [results[0], ...results.slice(2), results[1]].find(
      (r) => r.status === 'rejected' && (r.reason as RenderError).status !== 500,
    );
    throw precise?.status === 'rejected' ? precise.reason : err;
  }
}

function wrapEncodeError(err: unknown): never {
  throw mediaFailure('encode_failed', 'the video', err);
}
