import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRenderRoutes } from '../../containers/media/engines/render/index.js';
import { grayFrame, laplacianVariance, probe } from '../support/media-measures.js';
import { SHARED_MEDIA } from '../support/services.js';
import { generateFixtures } from '../support/fixtures.js';
import { configFrom } from '../../containers/media/core/config.js';
import { answeringErrors } from '../../containers/media/server/errors.js';

const MEDIA = join(SHARED_MEDIA, 'talking_head');
const CLIP = join(MEDIA, 'retalking_face3.mp4'); // 590², 25 fps, 5 s, AAC
const tmp = mkdtempSync(join(tmpdir(), 'render-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const app = answeringErrors(createRenderRoutes());
/** Blur is on unless turned off (the API's default, shared through the contract). */
const NO_BLUR = { blur_background: false };

async function render(source: string, options: object, speech?: string) {
  const fd = new FormData();
  fd.set('source', new Blob([readFileSync(source)]), 'source.mp4');
  if (speech) fd.set('speech', new Blob([readFileSync(speech)]), 'speech');
  fd.set('options', JSON.stringify(options));
  const res = await app.request('/render', { method: 'POST', body: fd });
  const bytes = Buffer.from(await res.arrayBuffer());
  const out = join(tmp, `out-${Math.random().toString(36).slice(2)}.mp4`);
  if (res.status === 200) writeFileSync(out, bytes);
  return { res, out, bytes, report: JSON.parse(res.headers.get('x-render-report') ?? 'null') };
}

function espeakWav(text: string, name: string): string {
  const path = join(tmp, name);
  execFileSync('espeak-ng', ['-v', 'en-us', '-w', path, text]);
  return path;
}

describe('POST /render normalize path', () => {
  it('should produce H.264 + AAC, faststart, same size, rate and duration', async () => {
    const { res, out, report } = await render(CLIP, NO_BLUR);
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(10_000);
    const p = probe(out);
    const v = p.streams.find((s: { codec_type: string }) => s.codec_type === 'video');
    const a = p.streams.find((s: { codec_type: string }) => s.codec_type === 'audio');
    expect(v).toMatchObject({
      codec_name: 'h264',
      width: 590,
      height: 590,
      r_frame_rate: '25/1',
      pix_fmt: 'yuv420p',
    });
    expect(a.codec_name).toBe('aac');
    expect(Math.abs(Number(p.format.duration) - 5.0)).toBeLessThan(0.1);
    // faststart: the moov box comes before mdat.
    const head = readFileSync(out);
    expect(head.indexOf('moov')).toBeGreaterThan(0);
    expect(head.indexOf('moov')).toBeLessThan(head.indexOf('mdat'));
    expect(report.path).toBe('passthrough');
  });

  it('should answer 4xx JSON for unreadable media and bad options', async () => {
    const junk = join(tmp, 'junk.mp4');
    writeFileSync(junk, Buffer.alloc(5000, 7));
    const r1 = await render(junk, NO_BLUR);
    expect(r1.res.status).toBe(422);
    expect(JSON.parse(r1.bytes.toString()).error.code).toBe('media_unreadable');
    const r2 = await render(CLIP, { blur_background: 'yes' });
    expect(r2.res.status).toBe(400);
    expect(JSON.parse(r2.bytes.toString()).error.message).toContain('options.blur_background');
    const r3 = await app.request('/render', { method: 'POST', body: new FormData() });
    expect(r3.status).toBeGreaterThanOrEqual(400);
    expect(r3.status).toBeLessThan(500);
  });
});

describe('POST /render with a source of two audio tracks', () => {
  it('should keep both tracks, the speech on the second still there', async () => {
    // The first track is silence, the second jfk.wav (a screen recording's app sound and microphone).
    const { res, out } = await render(join(generateFixtures(), 'jfk-on-second-track.mp4'), NO_BLUR);
    expect(res.status).toBe(200);
    const audio = probe(out).streams.filter((s: { codec_type: string }) => s.codec_type === 'audio');
    expect(audio.map((s: { codec_name: string }) => s.codec_name)).toEqual(['aac', 'aac']);
    expect(maxVolumeDb(out, 0)).toBeLessThan(-60);
    expect(maxVolumeDb(out, 1)).toBeGreaterThan(-20);
  });
});

describe('POST /render of anamorphic video', () => {
  it('should show the picture as the source is shown: square pixels at its display aspect', async () => {
    // 120×120 stored, 4:3 shown (DVD, DV): encoded as 120×120 square pixels it played 1:1, squeezed.
    const source = join(generateFixtures(), 'anamorphic-4x3.mp4');
    const { res, out, report } = await render(source, NO_BLUR);
    expect(res.status).toBe(200);
    const v = probe(out).streams.find((s: { codec_type: string }) => s.codec_type === 'video');
    expect(v).toMatchObject({ width: 160, height: 120 });
    expect(v.sample_aspect_ratio ?? '1:1').toBe('1:1');
    expect(report.output).toMatchObject({ width: 160, height: 120 });
  });
});

describe('POST /render of a file cut short', () => {
  it('should render what it holds and say that it was cut short', async () => {
    const { res, out, report } = await render(join(generateFixtures(), 'jfk-cut-short.mp4'), NO_BLUR);
    expect(res.status).toBe(200);
    const held = Number(probe(out).format.duration);
    expect(held).toBeGreaterThan(3);
    expect(held).toBeLessThan(10);
    expect(report.notes).toContainEqual(
      expect.stringMatching(
        /^the file holds less than its header announces \(\d+\.\d s of 11\.0 s\): .*; the output covers the \d+\.\d s that could be read$/,
      ),
    );
    const whole = await render(CLIP, NO_BLUR);
    expect(whole.report.notes.join(' ')).not.toMatch(/cut short/);
  });
});

/** The loudest sample of an output's audio track, dB (ffmpeg volumedetect; -91 for silence). */
function maxVolumeDb(file: string, track: number): number {
  const { stderr } = spawnSync(
    'ffmpeg',
    ['-hide_banner', '-i', file, '-map', `0:a:${track}`, '-af', 'volumedetect', '-f', 'null', '-'],
    { encoding: 'utf8' },
  );
  return Number(/max_volume: (-?[\d.]+) dB/.exec(stderr)?.[1] ?? NaN);
}

describe('POST /render with new speech', () => {
  it('should loop the video to a longer speech, duration = speech ± 1 frame, with captions', async () => {
    const speech = espeakWav(
      'This synthesized sentence is deliberately long so that it runs past the five seconds of the source clip.',
      'long.wav',
    );
    const mp3 = join(tmp, 'long.mp3');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', speech, '-c:a', 'libmp3lame', mp3]);
    const speechDur = Number(probe(mp3).format.duration);
    expect(speechDur).toBeGreaterThan(5.5);
    const { res, out, report } = await render(
      CLIP,
      { ...NO_BLUR, captions: 'This synthesized sentence is deliberately long' },
      mp3,
    );
    expect(res.status).toBe(200);
    const p = probe(out);
    const v = p.streams.find((s: { codec_type: string }) => s.codec_type === 'video');
    expect(Math.abs(Number(v.duration) - speechDur)).toBeLessThanOrEqual(1 / 25 + 0.001);
    expect(Math.abs(Number(p.format.duration) - speechDur)).toBeLessThanOrEqual(1 / 25 + 0.001);
    expect(p.streams.some((s: { codec_name: string }) => s.codec_name === 'mov_text')).toBe(true);
    expect(report.output.fit).toBe('loop');
  });

  it('should take supplied speech from the track or channel difference that holds it, and say so', async () => {
    const dir = generateFixtures();
    // A first track of silence and jfk.wav on the second: the output used to be silent.
    const twoTracks = await render(CLIP, NO_BLUR, join(dir, 'jfk-on-second-track.mp4'));
    expect(twoTracks.res.status).toBe(200);
    expect(maxVolumeDb(twoTracks.out, 0)).toBeGreaterThan(-20);
    expect(twoTracks.report.notes).toContain(
      "the speech audio's first track is silent or nearly so: its track 2 is used",
    );
    // jfk.wav in stereo with one channel phase-inverted: audible, but its average is silence.
    const antiphase = await render(CLIP, NO_BLUR, join(dir, 'jfk-antiphase.wav'));
    expect(antiphase.res.status).toBe(200);
    expect(maxVolumeDb(antiphase.out, 0)).toBeGreaterThan(-20);
    expect(antiphase.report.notes).toContainEqual(
      expect.stringMatching(/phase-inverted\): their difference is used$/),
    );
    // Ordinary stereo is read as it is.
    const stereo = await render(CLIP, NO_BLUR, join(SHARED_MEDIA, 'containers/jfk_44k_stereo.flac'));
    expect(stereo.report.notes.join(' ')).not.toMatch(/speech audio/);
    expect(
      probe(stereo.out).streams.find((s: { codec_type: string }) => s.codec_type === 'audio').channels,
    ).toBe(2);
  });

  it('should trim the video to a shorter speech', async () => {
    const speech = espeakWav('A short line.', 'short.wav');
    const speechDur = Number(probe(speech).format.duration);
    const { res, out, report } = await render(CLIP, NO_BLUR, speech);
    expect(res.status).toBe(200);
    const v = probe(out).streams.find((s: { codec_type: string }) => s.codec_type === 'video');
    expect(Math.abs(Number(v.duration) - speechDur)).toBeLessThanOrEqual(1 / 25 + 0.001);
    expect(report.output.fit).toBe('trim');
  });
});

describe('POST /render blur_background', () => {
  it('should blur the background and keep the face sharp', async () => {
    const clip = join(MEDIA, 'retalking_face2.mp4'); // 844², person centred, textured background
    const { res, out, report } = await render(clip, { blur_background: true });
    expect(res.status).toBe(200);
    expect(report.options_applied).toContain('blur_background');
    const S = 422;
    const before = grayFrame(clip, 2, S);
    const after = grayFrame(out, 2, S);
    const BG = [0.0, 0.0, 0.2, 0.25]; // top-left corner: wall
    const FACE = [0.38, 0.35, 0.62, 0.6]; // eyes, nose, mouth
    const bgRatio = laplacianVariance(after, S, BG) / laplacianVariance(before, S, BG);
    const faceRatio = laplacianVariance(after, S, FACE) / laplacianVariance(before, S, FACE);
    expect(bgRatio).toBeLessThan(0.3);
    expect(faceRatio).toBeGreaterThan(0.7);
  });
});

describe('POST /render lip_sync_correction with new speech (sync.so-compatible fake)', () => {
  it('should create, poll and download a lipsync-2 generation, fitted to the speech', async () => {
    const { startFakeSync } = await import('../fakes/sync.js');
    const { defaultRenderEngines } = await import('../../containers/media/engines/render/index.js');
    await using fake = await startFakeSync();
    const remoteApp = answeringErrors(
      createRenderRoutes({
        engines: defaultRenderEngines(configFrom({ SYNC_API_URL: fake.url, SYNC_API_KEY: 'k' }).render),
      }),
    );
    const speech = espeakWav('Lip sync from the remote provider.', 'sync.wav');
    const fd = new FormData();
    fd.set('source', new Blob([readFileSync(CLIP)]), 'source.mp4');
    fd.set('speech', new Blob([readFileSync(speech)]), 'speech.wav');
    fd.set(
      'options',
      JSON.stringify({ ...NO_BLUR, lip_sync_correction: true, lip_sync_correction_model: 'lipsync2' }),
    );
    const res = await remoteApp.request('/render', { method: 'POST', body: fd });
    expect(res.status).toBe(200);
    const report = JSON.parse(res.headers.get('x-render-report')!);
    expect(report.lip_sync.mode).toBe('remote');
    expect(fake.created[0]).toMatchObject({ model: 'lipsync-2', apiKey: 'k' });
    const out = join(tmp, 'sync.mp4');
    writeFileSync(out, Buffer.from(await res.arrayBuffer()));
    const v = probe(out).streams.find((s: { codec_type: string }) => s.codec_type === 'video');
    expect(Math.abs(Number(v.duration) - Number(probe(speech).format.duration))).toBeLessThanOrEqual(
      1 / 25 + 0.001,
    );
  });
});
