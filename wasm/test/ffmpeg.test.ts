import { describe, expect, it } from 'vitest';
import { EdgeBudgetError, extractPcm16k, getFFmpegCore, silentWav } from '../ffmpeg/index.js';
import { correlation, maxAbsDiff, mediaBytes, nativePcm, rms } from './helpers.js';

const CONTAINERS = [
  'talking_head/retalking_face2.mp4', // H.264 + AAC
  'containers/th_vp9_opus.webm',
  'containers/th_h264_aac.mkv',
  'containers/th_h264_aac.mov',
  'containers/th_mpeg4_mp3.avi',
  'containers/jfk_44k_stereo.flac',
  'containers/jfk.mp3',
  'containers/th_aac.m4a',
  'speech/jfk.wav',
];

describe('extractPcm16k', () => {
  it.each(CONTAINERS)('should decode %s like native ffmpeg', async (name) => {
    const [bytes, reference] = await Promise.all([mediaBytes(name), nativePcm(name)]);
    const audio = await extractPcm16k(bytes);
    expect(audio.hasAudio).toBe(true);
    expect(audio.sampleRate).toBe(16_000);
    // Same length within one 20 ms frame (decoders may differ on the priming samples).
    expect(Math.abs(audio.pcm.length - reference.length)).toBeLessThanOrEqual(320);
    expect(audio.durationSec).toBeCloseTo(audio.pcm.length / 16_000, 6);
    const corr = correlation(audio.pcm, reference);
    const diff = maxAbsDiff(audio.pcm, reference);
    console.log(
      `${name}: ${audio.pcm.length} vs ${reference.length} samples, max |diff| ${diff}, corr ${corr.toFixed(6)}, rms ${rms(audio.pcm).toFixed(1)} vs ${rms(reference).toFixed(1)}`,
    );
    expect(corr).toBeGreaterThan(0.99);
    expect(Math.abs(rms(audio.pcm) - rms(reference))).toBeLessThan(0.01 * rms(reference) + 1);
  });

  it("should put an audio stream that starts 2 s into the file on the file's timeline", async () => {
    const [bytes, reference] = await Promise.all([
      mediaBytes('gen/late_audio.mp4'),
      nativePcm('gen/late_audio.mp4'),
    ]);
    const { pcm } = await extractPcm16k(bytes);
    // The silence a player plays before 2 s, then the tone to the file's end at 4 s; as native ffmpeg.
    expect(pcm.length / 16_000).toBeCloseTo(4, 1);
    expect(Math.abs(pcm.length - reference.length)).toBeLessThanOrEqual(320);
    expect(rms(pcm.subarray(0, 16_000 * 1.9))).toBeLessThan(10);
    expect(rms(pcm.subarray(16_000 * 2.1, 16_000 * 3.9))).toBeGreaterThan(1000);
  });

  it('should mix a phase-inverted stereo pair to silence as mid and to the voice as side', async () => {
    const bytes = await mediaBytes('gen/jfk_antiphase.wav');
    const mid = await extractPcm16k(bytes.slice());
    const side = await extractPcm16k(bytes, { mix: 'side' });
    expect(rms(mid.pcm)).toBeLessThan(1);
    expect(rms(side.pcm)).toBeGreaterThan(1000);
    expect(side.pcm.length).toBe(mid.pcm.length);
  });

  it('should decode the audio stream it is asked for', async () => {
    const bytes = await mediaBytes('gen/jfk_second_track.mka');
    const first = await extractPcm16k(bytes.slice());
    const second = await extractPcm16k(bytes, { stream: 1 });
    expect(rms(first.pcm)).toBe(0);
    expect(rms(second.pcm)).toBeGreaterThan(1000);
  });

  it('should return an empty pcm and hasAudio=false for a video without audio', async () => {
    const audio = await extractPcm16k(await mediaBytes('gen/video_no_audio.mp4'));
    expect(audio).toMatchObject({ hasAudio: false, hasVideo: true, durationSec: 0 });
    expect(audio.pcm.length).toBe(0);
  });

  it('should reject input over the byte budget before decoding', async () => {
    await expect(extractPcm16k(new Uint8Array(2048), { maxBytes: 1024 })).rejects.toBeInstanceOf(
      EdgeBudgetError,
    );
  });

  it('should reject audio over the duration budget', async () => {
    const bytes = await mediaBytes('speech/jfk.wav');
    await expect(extractPcm16k(bytes, { maxDurationSec: 5 })).rejects.toMatchObject({
      name: 'EdgeBudgetError',
      limit: 'duration',
    });
  });

  it('should fail with a MediaDecodeError on garbage and keep working afterwards', async () => {
    await expect(extractPcm16k(new TextEncoder().encode('not a media file at all'))).rejects.toMatchObject({
      name: 'MediaDecodeError',
    });
    const audio = await extractPcm16k(await mediaBytes('containers/jfk.mp3'));
    expect(audio.pcm.length).toBeGreaterThan(16_000 * 10);
  });

  it("should read the warm-up's silent WAV as that many zero samples", async () => {
    for (const seconds of [0.1, 1]) {
      const audio = await extractPcm16k(silentWav(seconds));
      expect(audio).toMatchObject({ hasAudio: true, hasVideo: false, sampleRate: 16_000 });
      expect(audio.pcm.length).toBe(Math.round(seconds * 16_000));
      expect(audio.pcm.every((v) => v === 0)).toBe(true);
    }
    // Another rate is resampled to 16 kHz: the header's rate fields are read.
    expect((await extractPcm16k(silentWav(1, 8_000))).pcm.length).toBe(16_000);
  });

  it('should leave no files behind in MEMFS', async () => {
    await extractPcm16k(await mediaBytes('containers/jfk.mp3'));
    const core = await getFFmpegCore();
    const files = (core.FS as unknown as { readdir(path: string): string[] }).readdir('/');
    expect(files.filter((file) => /^(in|out)-/.test(file))).toEqual([]);
  });
});
