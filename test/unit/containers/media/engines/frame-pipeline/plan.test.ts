/**
 * The render plan's decode load (frame-pipeline/plan.ts): source pixels decoded per output pixel
 * encoded, which decides whether the encoder decodes its source on one thread (ffmpeg-args.ts).
 */
import { describe, expect, it } from 'vitest';
import { planRender } from '../../../../../../containers/media/engines/frame-pipeline/plan.js';
import type { ProbeResult } from '../../../../../../src/contract/media.js';

const probe = (width: number, height: number, fps: number, rotation = 0): ProbeResult => ({
  format: 'mov,mp4,m4a,3gp,3g2,mj2',
  duration_sec: 10,
  size_bytes: 1_000_000,
  video: { codec: 'h264', width, height, fps, rotation },
  audio: null,
});

describe('planRender decodeLoad', () => {
  it('should be 1 when the video keeps its size and rate, rotated or not', () => {
    expect(planRender(probe(1280, 720, 25), null).decodeLoad).toBe(1);
    expect(planRender(probe(1280, 720, 29.97), null).decodeLoad).toBeCloseTo(1, 6);
    expect(planRender(probe(1280, 720, 30, 90), null).decodeLoad).toBe(1);
  });

  it('should count what the render scales away: a larger picture, frames above 60 per second', () => {
    expect(planRender(probe(3840, 2160, 30), null).decodeLoad).toBe(4);
    expect(planRender(probe(1280, 720, 120), null).decodeLoad).toBe(2);
  });

  it('should take the fallback rate for both sides when the source has none', () => {
    expect(planRender(probe(1280, 720, 0), null).decodeLoad).toBe(1);
  });
});

describe('planRender geometry of anamorphic video', () => {
  const anamorphic = (width: number, height: number, sar: number, rotation = 0): ProbeResult => {
    const p = probe(width, height, 25, rotation);
    return { ...p, video: { ...p.video!, sar } };
  };
  it('should plan square pixels at the display aspect: NTSC 4:3 DVD, PAL 16:9 DV', () => {
    expect(planRender(anamorphic(720, 480, 8 / 9), null)).toMatchObject({ width: 640, height: 480 });
    expect(planRender(anamorphic(720, 576, 64 / 45), null)).toMatchObject({ width: 1024, height: 576 });
  });
  it('should turn the pixel aspect with a picture shown rotated', () => {
    expect(planRender(anamorphic(720, 480, 8 / 9, 90), null)).toMatchObject({ width: 540, height: 720 });
  });
});
