import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FFMPEG_BIN, spawnFfmpeg } from '../../containers/media/core/ffmpeg.js';
import { decoderArgs } from '../../containers/media/engines/frame-pipeline/ffmpeg-args.js';
import { readRecords } from '../../containers/media/engines/frame-pipeline/frames.js';
import { frameCount, type RenderPlan } from '../../containers/media/engines/frame-pipeline/plan.js';
import { decodeSourceFrames } from '../../containers/media/engines/frame-pipeline/source-frames.js';
import { yuvToRgb } from '../../containers/media/engines/frame-pipeline/yuv.js';
import { SHARED_MEDIA } from '../support/services.js';
import { testTempDir } from '../support/temp-dir.js';

/** 1.5 s of a moving test pattern at 30 fps with B-frames: resampled to 25 fps, frames differ. */
function pattern(dir: string): string {
  const out = join(dir, 'pattern.mp4');
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=96x64:rate=30',
    '-t',
    '1.5',
    '-c:v',
    'libx264',
    '-bf',
    '3',
    '-pix_fmt',
    'yuv420p',
    out,
  ]);
  return out;
}

const plan = (durationSec: number, fit: RenderPlan['fit']): RenderPlan => ({
  width: 96,
  height: 64,
  fps: 25,
  durationSec,
  fit,
  sourceHasAudio: false,
  decodeLoad: 1,
});

async function decodeAll(source: string, p: RenderPlan, everyNth = 1): Promise<Buffer[]> {
  using dec = spawnFfmpeg(decoderArgs(source, p, { loop: false, pixFmt: 'yuv420p', everyNth }));
  dec.child.stdin.end();
  const frames: Buffer[] = [];
  for await (const f of readRecords(dec.child.stdout, 96 * 64 * 1.5)) frames.push(f);
  await dec.done;
  return frames;
}

const decodeError = (err: unknown) => new Error(`decode failed: ${(err as Error).message}`);

describe('the source frames of the frames path', () => {
  it("should give the analysis every Nth frame of the render's own decode, the same bytes", async () => {
    const source = pattern(testTempDir('source-frames-'));
    const all = await decodeAll(source, plan(1.5, 'source'));
    const third = await decodeAll(source, plan(1.5, 'source'), 3);
    expect(all.length).toBeGreaterThanOrEqual(37);
    expect(third.length).toBe(Math.ceil(all.length / 3));
    third.forEach((f, k) => expect(f.equals(all[3 * k])).toBe(true));
  });

  it('should loop with one decoder per pass: each pass the same frames, source indices from 0', async () => {
    const source = pattern(testTempDir('source-frames-'));
    const onePass = await decodeAll(source, plan(4, 'loop'));
    const looped = plan(4, 'loop');
    const frames: { index: number; sourceIndex: number; data: Buffer }[] = [];
    for await (const f of decodeSourceFrames(source, looped, { loop: true, decodeError }))
      frames.push({ index: f.index, sourceIndex: f.sourceIndex, data: Buffer.from(f.yuv) });
    expect(frames.length).toBe(frameCount(looped));
    frames.forEach((f, i) => {
      expect(f.index).toBe(i);
      expect(f.sourceIndex).toBe(i % onePass.length);
      expect(f.data.equals(onePass[f.sourceIndex])).toBe(true);
    });
  });

  it("should not loop a source that plays once, and turn a decoder's failure into the caller's error", async () => {
    const dir = testTempDir('source-frames-');
    const source = pattern(dir);
    let n = 0;
    for await (const f of decodeSourceFrames(source, plan(1.5, 'source'), { loop: false, decodeError }))
      expect(f.sourceIndex).toBe(n++);
    expect(n).toBe((await decodeAll(source, plan(1.5, 'source'))).length);

    const missing = decodeSourceFrames(join(dir, 'missing.mp4'), plan(4, 'loop'), {
      loop: true,
      decodeError,
    });
    await expect(missing.next()).rejects.toThrow(/^decode failed/);
  });

  it("should convert yuv420p to RGB as the service's ffmpeg does, to within rounding", () => {
    const clip = join(SHARED_MEDIA, 'talking_head', 'retalking_face3.mp4'); // 590², a face
    const grab = (fmt: string) =>
      execFileSync(
        FFMPEG_BIN,
        [
          '-loglevel',
          'error',
          '-ss',
          '2',
          '-i',
          clip,
          '-frames:v',
          '1',
          '-vf',
          `format=${fmt}`,
          '-f',
          'rawvideo',
          'pipe:1',
        ],
        { maxBuffer: 1 << 24 },
      );
    const [rgba, yuv] = [grab('rgba'), grab('yuv420p')];
    const { rgb } = yuvToRgb(yuv, 590, 590, 1);
    const signed = [0, 0, 0],
      abs = [0, 0, 0];
    for (let p = 0; p < 590 * 590; p++)
      for (let c = 0; c < 3; c++) {
        const e = rgb[p * 3 + c] - rgba[p * 4 + c];
        signed[c] += e / (590 * 590);
        abs[c] += Math.abs(e) / (590 * 590);
      }
    // Without FFMPEG_RGB_OFFSET: signed ≈ +1 to +1.4 per channel.
    for (let c = 0; c < 3; c++) {
      expect(Math.abs(signed[c])).toBeLessThan(0.25);
      expect(abs[c]).toBeLessThan(0.5);
    }
  });
});
