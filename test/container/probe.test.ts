import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProbeResult } from '../../src/contract/media.js';
import { createMediaApp } from '../../containers/media/server/server.js';
import { MEDIA_HEADERS } from '../../src/contract/media-protocol.js';
import { GENERATED, generateFixtures } from '../support/fixtures.js';
import { SHARED_MEDIA } from '../support/services.js';

const app = createMediaApp();
const probe = (bytes: Uint8Array, filename: string) =>
  app.request('/probe', {
    method: 'POST',
    body: bytes,
    headers: { 'x-source-filename': encodeURIComponent(filename) },
  });

const sharedClips = ['containers', 'talking_head']
  .filter((d) => existsSync(join(SHARED_MEDIA, d)))
  .flatMap((d) => readdirSync(join(SHARED_MEDIA, d)).map((f) => join(d, f)));

describe('probe on real media', () => {
  it.each(sharedClips)('should probe %s', async (clip) => {
    const res = await probe(readFileSync(join(SHARED_MEDIA, clip)), clip);
    expect(res.status).toBe(200);
    const body = (await res.json()) as ProbeResult;
    expect(body.duration_sec).toBeGreaterThan(2);
    expect(body.audio).not.toBeNull();
    if (/\.(mp4|webm|mkv|mov|avi)$/.test(clip)) expect(body.video!.width).toBeGreaterThan(100);
  });

  it('should probe generated clips and refuse non-media with 422', async () => {
    const dir = generateFixtures();
    const ok = await (await probe(readFileSync(join(dir, 'silent-2s.webm')), 'a.webm')).json();
    expect(ok).toMatchObject({ audio: null, video: { codec: 'vp8', width: 160, height: 120 } });
    const bad = await probe(readFileSync(join(dir, 'binary-junk.mp4')), 'junk.mp4');
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(
      /not a readable audio or video file/,
    );
    // An MP4 cut off before its index: named as such.
    const mp4 = readFileSync(join(dir, 'tone-3s.mp4'));
    const noIndex = await probe(mp4.subarray(0, mp4.indexOf('moov')), 'cut.mp4');
    expect(noIndex.status).toBe(422);
    expect(((await noIndex.json()) as { error: { message: string } }).error.message).toMatch(
      /^the file is an MP4 or MOV without its index \(moov atom\)/,
    );
    const empty = await probe(new Uint8Array(0), 'x.mp4');
    expect(empty.status).toBe(400);
  });

  it('should not take a duration guessed from the bitrate for a header that announces it', async () => {
    // A whole 14 s VBR MP3 without a Xing header, quiet at first: ffprobe guesses 80 s from its
    // first frames. Not a file cut short.
    const dir = generateFixtures();
    const res = await probe(readFileSync(join(dir, 'jfk-vbr-no-xing.mp3')), 'a.mp3');
    expect(res.status).toBe(200);
    const body = (await res.json()) as ProbeResult;
    expect(body.duration_sec).toBeCloseTo(14, 0);
    expect(body.header_duration_sec).toBeUndefined();
  });

  it('should extract 16 kHz mono PCM', async () => {
    const dir = generateFixtures();
    const res = await app.request('/audio', { method: 'POST', body: readFileSync(join(dir, 'tone-3s.mp4')) });
    expect(res.status).toBe(200);
    const pcm = new Int16Array(await res.arrayBuffer());
    expect(pcm.length).toBeGreaterThan(16_000 * 2.9);
    expect(pcm.length).toBeLessThan(16_000 * 3.1);
    expect(Math.max(...pcm.slice(8000, 9000))).toBeGreaterThan(1000);
  });

  it("should put an audio stream that starts 2 s into the file on the file's timeline", async () => {
    const dir = generateFixtures();
    const res = await app.request('/audio', {
      method: 'POST',
      body: readFileSync(join(dir, 'late-audio.mp4')),
    });
    expect(res.status).toBe(200);
    const pcm = new Int16Array(await res.arrayBuffer());
    // Before 2 s: the silence a player plays; the tone from 2 s to the file's end at 4 s.
    expect(pcm.length / 16_000).toBeCloseTo(4, 1);
    expect(peak(pcm.subarray(0, 16_000 * 1.9))).toBeLessThan(50);
    expect(peak(pcm.subarray(16_000 * 2.1, 16_000 * 3.9))).toBeGreaterThan(1000);
  });

  it('should mix a phase-inverted stereo pair to silence as mid and to the voice as side', async () => {
    generateFixtures();
    const body = readFileSync(join(GENERATED, 'jfk-antiphase.wav'));
    const extract = async (mix?: string) => {
      const headers = mix ? { [MEDIA_HEADERS.audioMix]: mix } : undefined;
      const res = await app.request('/audio', { method: 'POST', body, headers });
      expect(res.status).toBe(200);
      return new Int16Array(await res.arrayBuffer());
    };
    const [mid, side, unknown] = await Promise.all([extract(), extract('side'), extract('both')]);
    expect(peak(mid)).toBeLessThan(2);
    expect(peak(unknown)).toBeLessThan(2); // an unknown mix is the default
    expect(peak(side)).toBeGreaterThan(10_000);
    expect(side.length).toBe(mid.length);
  });

  it('should decode the audio stream x-audio-stream names, and the first for a bad or absent one', async () => {
    generateFixtures();
    const body = readFileSync(join(GENERATED, 'jfk-on-second-track.mp4'));
    const extract = async (stream?: string) => {
      const headers = stream === undefined ? undefined : { [MEDIA_HEADERS.audioStream]: stream };
      const res = await app.request('/audio', { method: 'POST', body, headers });
      expect(res.status).toBe(200);
      return new Int16Array(await res.arrayBuffer());
    };
    const [first, second, junk, huge] = await Promise.all([
      extract(),
      extract('1'),
      extract('-1;x'),
      extract('99'),
    ]);
    expect(peak(first)).toBe(0);
    expect(peak(second)).toBeGreaterThan(10_000);
    expect(peak(junk)).toBe(0);
    expect(peak(huge)).toBe(0);
  });
});

function peak(samples: Int16Array): number {
  let max = 0;
  for (const s of samples) max = Math.max(max, Math.abs(s));
  return max;
}
