import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRenderRoutes } from '../../containers/media/engines/render/index.js';
import { measureGaze } from '../../containers/media/engines/gaze/index.js';
import { mouthSpeechCorrelation } from '../../containers/media/engines/mouth/index.js';
import { duration, grayFrame, laplacianVariance, probe } from '../support/media-measures.js';
import { SHARED_MEDIA } from '../support/services.js';
import { answeringErrors } from '../../containers/media/server/errors.js';

// Every per-frame edit at once, in the one decode → edits → one encode of the frames path:
// blur (mask in alpha), eye contact, mouth driving from new speech, and a caption track.
// retalking_face2: 844², 25 fps, 5.04 s, textured wall, head turned ~8° (gaze has work to do).
const CLIP = join(SHARED_MEDIA, 'talking_head/retalking_face2.mp4');
const FPS = 25;
const TEXT = 'Thank you all for coming today. We will start with the numbers.';
const tmp = mkdtempSync(join(tmpdir(), 'render-combined-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Sharpness of a box (fractions of the frame) of the frame at `sec`. */
function sharpness(path: string, sec: number, box: number[]): number {
  const S = 422;
  return laplacianVariance(grayFrame(path, sec, S), S, box);
}

/** POST /render of CLIP with `speech` and `options`; the output is written to `<tmp>/<outName>`. */
async function render(speech: string, options: object, outName: string) {
  const fd = new FormData();
  fd.set('source', new Blob([readFileSync(CLIP)]), 'source.mp4');
  fd.set('speech', new Blob([readFileSync(speech)]), 'speech.wav');
  fd.set('options', JSON.stringify(options));
  const res = await answeringErrors(createRenderRoutes()).request('/render', { method: 'POST', body: fd });
  expect(res.status).toBe(200);
  const report = JSON.parse(res.headers.get('x-render-report')!);
  const out = join(tmp, outName);
  writeFileSync(out, Buffer.from(await res.arrayBuffer()));
  return { report, out };
}

describe('POST /render with every option at once', () => {
  it(
    'should blur, correct the gaze, drive the mouth and caption in one render',
    { timeout: 900_000 },
    async () => {
      const speech = join(tmp, 'speech.wav');
      execFileSync('espeak-ng', ['-v', 'en-us+m3', '-s', '160', '-w', speech, TEXT]);
      const speechSec = duration(speech);

      const { report, out } = await render(
        speech,
        { blur_background: true, eye_contact_correction: true, lip_sync_correction: true, captions: TEXT },
        'out.mp4',
      );

      // One pass through the frame editors, each of them applied.
      expect(report.path).toBe('frames');
      expect(report.options_applied).toEqual(
        expect.arrayContaining(['blur_background', 'eye_contact_correction', 'lip_sync_correction']),
      );
      expect(report.lip_sync.mode).toBe('embedded');
      expect(report.editors.eye_contact.eyes_warped).toBeGreaterThan(0);
      // Borrowed landmarks: no mesh counters of its own, but the frames it found a face in.
      expect(report.editors.eye_contact.keyframes).toBeUndefined();
      expect(report.editors.eye_contact.frames_with_face).toBeGreaterThan(
        0.9 * report.editors.eye_contact.frames,
      );
      expect(report.captions.words).toBeGreaterThan(8);

      // The container: H.264 + AAC + mov_text, source size and rate, speech length ± 1 frame, faststart.
      const info = probe(out);
      const video = info.streams.find((s: { codec_type: string }) => s.codec_type === 'video');
      const audio = info.streams.find((s: { codec_type: string }) => s.codec_type === 'audio');
      expect([video.codec_name, audio.codec_name]).toEqual(['h264', 'aac']);
      expect(info.streams.some((s: { codec_name: string }) => s.codec_name === 'mov_text')).toBe(true);
      expect([video.width, video.height, video.r_frame_rate]).toEqual([844, 844, '25/1']);
      expect(Math.abs(Number(video.duration) - speechSec)).toBeLessThanOrEqual(1 / FPS + 1e-3);
      const head = readFileSync(out)
        .subarray(0, 64 * 1024)
        .toString('latin1');
      expect(head.indexOf('moov')).toBeLessThan(head.indexOf('mdat'));

      // Blur: the wall loses its detail, the face keeps it.
      const BG = [0.0, 0.0, 0.2, 0.25];
      const FACE = [0.38, 0.35, 0.62, 0.6];
      expect(sharpness(out, 2, BG) / sharpness(CLIP, 2, BG)).toBeLessThan(0.3);
      expect(sharpness(out, 2, FACE) / sharpness(CLIP, 2, FACE)).toBeGreaterThan(0.6);

      // Gaze moved toward the camera, the mouth follows the new speech.
      const [gazeBefore, gazeAfter] = [
        await measureGaze(CLIP, { sampleFps: 4 }),
        await measureGaze(out, { sampleFps: 4 }),
      ];
      const mouth = await mouthSpeechCorrelation(out, speech);
      console.log(
        `every option: gaze ${gazeBefore.meanAbsDirectDeg.toFixed(1)}° → ${gazeAfter.meanAbsDirectDeg.toFixed(1)}° off camera, mouth–speech r ${mouth.r.toFixed(3)}, eye landmarks from ${report.editors.eye_contact.landmarks}`,
      );
      expect(gazeAfter.meanAbsDirectDeg).toBeLessThan(gazeBefore.meanAbsDirectDeg * 0.85);
      expect(mouth.r).toBeGreaterThan(0.4);
    },
  );
  it(
    'should correct the gaze of every frame of a looped source with the eyes the mouth analysis measured',
    { timeout: 900_000 },
    async () => {
      // Longer than the 5 s clip: the source loops, and the eye landmarks are read by the source
      // frame the mouth editor recognised, from its start again on the second pass.
      const speech = join(tmp, 'long-speech.wav');
      execFileSync('espeak-ng', ['-v', 'en-us+m3', '-s', '150', '-w', speech, `${TEXT} ${TEXT}`]);
      const { report, out } = await render(
        speech,
        { eye_contact_correction: true, lip_sync_correction: true },
        'looped.mp4',
      );

      expect(report.output.fit).toBe('loop');
      const gaze = report.editors.eye_contact;
      expect(gaze.landmarks).toBe('mouth_analysis');
      // Both eyes of (nearly) every frame, past the loop point too.
      expect(gaze.eyes_warped).toBeGreaterThanOrEqual(2 * gaze.frames * 0.9);
      const [before, after] = [
        await measureGaze(CLIP, { sampleFps: 4 }),
        await measureGaze(out, { sampleFps: 4 }),
      ];
      console.log(
        `looped: ${gaze.frames} frames, ${gaze.eyes_warped} eyes warped, gaze ${before.meanAbsDirectDeg.toFixed(1)}° → ${after.meanAbsDirectDeg.toFixed(1)}°`,
      );
      expect(after.meanAbsDirectDeg).toBeLessThan(before.meanAbsDirectDeg * 0.85);
    },
  );
});
