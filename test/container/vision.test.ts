import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnFfmpeg } from '../../containers/media/core/ffmpeg.js';
import { decodeFrames, PpmStreamParser } from '../../containers/media/engines/vision/frames.js';
import { disposeSharedVisionPool, sharedVisionPool } from '../../containers/media/engines/vision/pool.js';
import { visionRoutes as routes } from '../../containers/media/engines/vision/routes.js';
import { answeringErrors } from '../../containers/media/server/errors.js';
import { mapHands } from '../../containers/media/engines/vision/human/mapping.js';
import { frameAt, mediaPath, readLabels, runVision } from '../fixtures/visual/run-vision.js';
import { generateFixtures } from '../support/fixtures.js';

const labels = readLabels();
const media = (name: string) => mediaPath(labels, name);
const TALKING_HEADS = labels.items.filter((i) => i.media.startsWith('talking_head/')).map((i) => i.media);
const S13 = 'gesture/liveportrait_s13_arms.mp4';
const PALM = 'gesture/hagrid_crop_raised_palm.jpg';

/** The routes as the server mounts them: their failures answered by the server's one handler. */
const visionRoutes = answeringErrors(routes);

let work: string;

/** Generates a clip with ffmpeg lavfi (no person in it). */
async function lavfi(name: string, source: string, seconds: number): Promise<string> {
  const out = path.join(work, name);
  using proc = spawnFfmpeg([
    '-f',
    'lavfi',
    '-i',
    `${source}:d=${seconds}`,
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-y',
    out,
  ]);
  proc.child.stdin.end();
  await proc.done;
  return out;
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'vision-test-'));
  await sharedVisionPool().ready(); // models load once for the whole file
});
afterAll(() => {
  disposeSharedVisionPool();
  rmSync(work, { recursive: true, force: true });
});

describe('PpmStreamParser', () => {
  it('should reassemble frames split across arbitrary chunks', () => {
    const frame = (w: number, h: number, fill: number) =>
      Buffer.concat([Buffer.from(`P6\n${w} ${h}\n255\n`), Buffer.alloc(w * h * 3, fill)]);
    const all = Buffer.concat([frame(4, 2, 1), frame(3, 3, 2)]);
    const parser = new PpmStreamParser();
    const images = [];
    for (let i = 0; i < all.length; i += 5) images.push(...parser.push(all.subarray(i, i + 5)));
    expect(images.map((im) => [im.width, im.height, im.data.length, im.data[0]])).toEqual([
      [4, 2, 24, 1],
      [3, 3, 27, 2],
    ]);
    expect(parser.pendingBytes).toBe(0);
  });
});

describe.skipIf(!media('talking_head/retalking_face1.mp4'))('fast decode', () => {
  // The deblocking filter the fast decode skips smooths block edges; after the scale to 640 px
  // what is left of its absence must be a fraction of a grey level on average, a few at most.
  it('should give the same frames as the full decode, within a few grey levels', async () => {
    const file = media('talking_head/retalking_face1.mp4')!;
    const decode = async (fastDecode: boolean) => {
      const frames: Uint8Array[] = [];
      for await (const f of decodeFrames(file, { fps: 2, fastDecode })) frames.push(f.data);
      return frames;
    };
    const [full, fast] = [await decode(false), await decode(true)];
    expect(fast.length).toBe(full.length);
    const meanAbsDiff = full.map(
      (a, i) => a.reduce((sum, v, j) => sum + Math.abs(v - fast[i][j]), 0) / a.length,
    );
    expect(Math.max(...meanAbsDiff)).toBeGreaterThan(0); // the filter really was skipped
    expect(Math.max(...meanAbsDiff)).toBeLessThan(2);
  });
});

describe.skipIf(!media('talking_head/retalking_face3.mp4'))('skipping non-reference frames', () => {
  // At 2 fps of a 25 fps stream with B-frames the decoder skips the frames nothing refers to; the
  // fps filter takes a neighbouring frame instead (≤ 40 ms away), which on a talking head differs
  // by a few grey levels on average.
  it('should sample as many frames, each close to the one the full decode gives', async () => {
    const file = media('talking_head/retalking_face3.mp4')!;
    const decode = async (sourceFps?: number) => {
      const frames: Uint8Array[] = [];
      for await (const f of decodeFrames(file, { fps: 2, sourceFps })) {
        // The sample's ordinal paces the hand passes (hand-crop.ts handPassWanted).
        expect(f.index).toBe(frames.length);
        frames.push(f.data);
      }
      return frames;
    };
    const [full, skipping] = [await decode(0), await decode()];
    expect(skipping.length).toBe(full.length);
    const meanAbsDiff = full.map(
      (a, i) => a.reduce((sum, v, j) => sum + Math.abs(v - skipping[i][j]), 0) / a.length,
    );
    expect(Math.max(...meanAbsDiff)).toBeGreaterThan(0); // frames really were skipped
    expect(Math.max(...meanAbsDiff)).toBeLessThan(4);
  });
});

describe('frame times', () => {
  it("should sample a video that starts 1 s into the file on the file's timeline", async () => {
    // late-video.mp4: 3 s of audio; its video (1 s red, then 1 s blue) starts at 1 s.
    const file = path.join(generateFixtures(), 'late-video.mp4');
    const colours: string[] = [];
    for await (const f of decodeFrames(file, { fps: 2, width: 160 })) colours.push(dominantColour(f.data));
    // A frame's time is its index over the rate, so frame k must be the picture at k / 2 s on the
    // file's timeline: ffmpeg's constant-rate output repeats the first picture at 0 and 0.5 s (what
    // a player shows), then 1.0 s is red and 2.0 s blue. A variable-rate output would start at 1 s.
    expect(colours).toEqual(['red', 'red', 'red', 'red', 'blue', 'blue']);
  });
});

describe('frame depth', () => {
  it('should sample a 10-bit video as 8-bit RGB', async () => {
    const colours: string[] = [];
    for await (const f of decodeFrames(path.join(generateFixtures(), 'red-10bit.mov'), {
      fps: 2,
      width: 160,
    })) {
      expect(f.data.length).toBe(f.width * f.height * 3);
      colours.push(dominantColour(f.data));
    }
    expect(colours).toEqual(['red', 'red']);
  });
});

describe('frame shape', () => {
  it('should sample anamorphic video at the aspect it is shown', async () => {
    // 120×120 pixels shown 4:3 (DVD, DV): sampled 160 wide, 120 high, not 160 × 160.
    for await (const f of decodeFrames(path.join(generateFixtures(), 'anamorphic-4x3.mp4'), {
      fps: 1,
      width: 160,
    }))
      expect([f.width, f.height]).toEqual([160, 120]);
  });
});

/** 'red' or 'blue': which of the two channels is brighter on average over an RGB frame. */
function dominantColour(rgb: Uint8Array): string {
  let red = 0,
    blue = 0;
  for (let i = 0; i < rgb.length; i += 3) {
    red += rgb[i]!;
    blue += rgb[i + 2]!;
  }
  return red > blue ? 'red' : 'blue';
}

describe('hand sides', () => {
  it('should name a hand after the nearest pose wrist and leave far hands unknown', () => {
    const hand = (x: number, y: number) => ({
      score: 0.9,
      box: [x - 20, y - 40, 40, 40] as [number, number, number, number],
      label: 'hand',
      keypoints: Array.from({ length: 21 }, () => [x, y, 0] as [number, number, number]),
    });
    const pose = {
      score: 0.9,
      keypoints: { left_wrist: { x: 400, y: 300, score: 0.8 }, right_wrist: { x: 100, y: 300, score: 0.8 } },
    };
    const sides = mapHands([hand(405, 310), hand(95, 290), hand(250, 50)], pose).map((h) => h.side);
    expect(sides).toEqual(['left', 'right', 'unknown']);
  });
});

describe.skipIf(!media(S13))('vision on real media', () => {
  it('should find a face in ≥ 95 % of talking-head frames, with 478 mesh points (iris) and emotions', async () => {
    let frames = 0;
    let faces = 0;
    for (const name of TALKING_HEADS) {
      const file = media(name);
      if (!file) continue;
      const run = await runVision(file, { fps: 2 });
      frames += run.frames.length;
      faces += run.frames.filter((f) => f.face).length;
      const face = run.frames.find((f) => f.face)!.face!;
      expect(face.mesh).toHaveLength(478);
      expect(face.emotion.length).toBeGreaterThan(0);
      expect(face.rotation).not.toBeNull();
      expect(Math.abs(face.rotation!.yaw)).toBeLessThan(Math.PI / 2);
    }
    expect(frames).toBeGreaterThan(40);
    expect(faces / frames).toBeGreaterThanOrEqual(0.95);
  });

  it('should put a wrist above the nose in the raised-arm frames of s13, and not in the arms-down ones', async () => {
    const { frames, stats } = await runVision(media(S13)!, { fps: 2 });
    expect(stats.frames).toBe(frames.length);
    expect(frames.map((f) => f.time)).toEqual([...frames.map((f) => f.time)].sort((a, b) => a - b));
    const item = labels.items.find((i) => i.media === S13)!;
    for (const label of item.frames!) {
      if (label.wrist_above_nose == null) continue;
      const pose = frameAt(frames, label.time).pose;
      expect(pose, `pose at ${label.time}s`).not.toBeNull();
      const { nose, left_wrist, right_wrist } = pose!.keypoints;
      const wristAbove = [left_wrist, right_wrist].some((w) => w && w.score > 0.3 && w.y < nose.y);
      expect(wristAbove, `wrist above nose at ${label.time}s`).toBe(label.wrist_above_nose);
    }
  });

  it("should find a hand with 21 landmarks on the open-palm image, on the person's left", async () => {
    const { frames } = await runVision(media(PALM)!, { fps: 1 });
    expect(frames).toHaveLength(1);
    const hands = frames[0].hands;
    expect(hands.length).toBeGreaterThan(0);
    expect(hands[0].landmarks).toHaveLength(21);
    expect(hands.map((h) => h.side)).toContain('left');
    expect(frames[0].face?.mesh).toHaveLength(478);
  });
});

describe('media without a person', () => {
  it('should report honest nulls on a test pattern', async () => {
    const file = await lavfi('testsrc.mp4', 'testsrc=size=1280x720:rate=25', 3);
    const { frames } = await runVision(file, { fps: 2 });
    expect(frames.length).toBeGreaterThanOrEqual(6);
    expect(frames[0]).toMatchObject({ width: 640, height: 360 });
    for (const f of frames) expect(f).toMatchObject({ pose: null, face: null, hands: [] });
  });

  it('should not crash on a nearly black clip', async () => {
    const file = await lavfi('dark.mp4', 'color=c=0x050505:size=640x480:rate=25', 2);
    const { frames } = await runVision(file, { fps: 2 });
    expect(frames.length).toBeGreaterThanOrEqual(4);
    for (const f of frames) expect(f).toMatchObject({ pose: null, face: null, hands: [] });
  });
});

describe('POST /vision', () => {
  it('should stream NDJSON observations and a final done line', async () => {
    const file = await lavfi('route.mp4', 'testsrc=size=320x240:rate=25', 2);
    const { readFile } = await import('node:fs/promises');
    const res = await visionRoutes.request('/vision?fps=2', { method: 'POST', body: await readFile(file) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const last = lines.at(-1);
    expect(last).toMatchObject({ done: true, frames: lines.length - 1 });
    expect(last.ms_per_frame).toHaveProperty('face');
    // Compact frames by default: the analytics' numbers, no mesh or landmarks.
    expect(lines[0]).toMatchObject({
      compact: 1,
      time: 0,
      width: 640,
      height: 480,
      pose: null,
      hands: [],
      face: null,
    });
  });

  it('should stream full observations with detail=full, compact ones ~10× smaller by default', async () => {
    const { readFile } = await import('node:fs/promises');
    const body = await readFile(
      media(PALM) ?? (await lavfi('detail.mp4', 'testsrc=size=320x240:rate=25', 1)),
    );
    const read = async (query: string) => {
      const res = await visionRoutes.request(`/vision?fps=1${query}`, { method: 'POST', body });
      expect(res.status).toBe(200);
      return (await res.text()).trim().split('\n').slice(0, -1);
    };
    const [full] = await read('&detail=full');
    const [compact] = await read('');
    expect(JSON.parse(full)).not.toHaveProperty('compact');
    expect(JSON.parse(compact)).toMatchObject({ compact: 1 });
    expect(compact).not.toContain('mesh');
    if (media(PALM)) expect(compact.length * 5).toBeLessThan(full.length);
    const bad = await visionRoutes.request('/vision?detail=everything', { method: 'POST', body: 'x' });
    expect(bad.status).toBe(400);
  });

  it('should answer 415 with a JSON error for a body that is not media', async () => {
    const res = await visionRoutes.request('/vision', { method: 'POST', body: 'definitely not a video' });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: { code: 'unsupported_media' } });
  });

  it('should answer 400 for a bad fps', async () => {
    const res = await visionRoutes.request('/vision?fps=0', { method: 'POST', body: 'x' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_request' } });
  });
});
