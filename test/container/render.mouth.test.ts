import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRenderRoutes } from '../../containers/media/engines/render/index.js';
import { mouthSpeechCorrelation } from '../../containers/media/engines/mouth/index.js';
import { duration } from '../support/media-measures.js';
import { SHARED_MEDIA } from '../support/services.js';
import { answeringErrors } from '../../containers/media/server/errors.js';

// Two renders of 5.6 s (one with the mouth analysis) and two per-frame mouth tracks: ~2–4 min under load.
const CLIP = join(SHARED_MEDIA, 'talking_head/retalking_face3.mp4'); // 590², 25 fps, 5.04 s
/** Regions of CLIP in px (w:h:x:y): the eyes and the mouth of the (nearly still) head. */
const EYES = '220:70:185:200';
const MOUTH = '160:110:215:320';
const tmp = mkdtempSync(join(tmpdir(), 'mouth-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function render(options: object, speech: string) {
  const fd = new FormData();
  fd.set('source', new Blob([readFileSync(CLIP)]), 'source.mp4');
  fd.set('speech', new Blob([readFileSync(speech)]), 'speech.wav');
  fd.set('options', JSON.stringify({ blur_background: false, ...options }));
  const res = await answeringErrors(createRenderRoutes()).request('/render', { method: 'POST', body: fd });
  expect(res.status).toBe(200);
  const out = join(tmp, `out-${Math.random().toString(36).slice(2)}.mp4`);
  writeFileSync(out, Buffer.from(await res.arrayBuffer()));
  return { out, report: JSON.parse(res.headers.get('x-render-report')!) };
}

/** Mean absolute gray difference of a region over a few frames of two videos. */
function regionMad(a: string, b: string, crop: string): number {
  const gray = (p: string) =>
    execFileSync(
      'ffmpeg',
      [
        '-v',
        'error',
        '-i',
        p,
        '-vf',
        `select='not(mod(n\\,20))',crop=${crop},format=gray`,
        '-vsync',
        '0',
        '-f',
        'rawvideo',
        'pipe:1',
      ],
      { maxBuffer: 1 << 26 },
    );
  const [x, y] = [gray(a), gray(b)];
  expect(x.length).toBe(y.length);
  return x.reduce((s, v, i) => s + Math.abs(v - y[i]), 0) / x.length;
}

describe('POST /render lip_sync_correction with new speech (embedded mouth driving)', () => {
  it(
    'should make the mouth follow the speech and leave the rest of the face alone',
    { timeout: 900_000 },
    async () => {
      const speech = join(tmp, 'speech.wav');
      // Longer than the clip: the source loops, so the editor must also follow its frames across the restart.
      execFileSync('espeak-ng', [
        '-v',
        'en-us+m3',
        '-w',
        speech,
        'Hello there. Today we talk about the weather, and the way it changes every single day in the spring.',
      ]);
      const speechSec = duration(speech);

      const plain = await render({}, speech);
      const driven = await render({ lip_sync_correction: true }, speech);
      const r = driven.report;
      expect(r.path).toBe('frames');
      expect(r.options_applied).toContain('lip_sync_correction');
      expect(r.lip_sync).toMatchObject({ mode: 'embedded', engine: 'patch-bank' });
      expect(r.lip_sync.frames_edited).toBeGreaterThan(0.9 * r.frames);
      expect(r.editors.mouth.bank_patches).toBeLessThanOrEqual(96);

      // Output lasts as long as the speech, to a frame.
      expect(Math.abs(duration(driven.out, 'v:0') - speechSec)).toBeLessThanOrEqual(1 / 25 + 1e-3);
      expect(Math.abs(duration(driven.out) - speechSec)).toBeLessThanOrEqual(1 / 25 + 1e-3);

      // The measured mouth follows the speech envelope clearly better than the fitted video's.
      const before = await mouthSpeechCorrelation(plain.out, speech);
      const after = await mouthSpeechCorrelation(driven.out, speech);
      console.log('mouth–speech correlation: plain', before, 'driven', after);
      expect(after.faces).toBeGreaterThan(0.95 * after.frames);
      expect(after.r).toBeGreaterThan(0.45);
      expect(after.r).toBeGreaterThan(before.r + 0.25);

      // Same source frames in both renders: the eyes match to the noise of the frame path's
      // RGBA round trip + re-encode (~2 gray levels, as in the gaze test), the mouth does not.
      const eyes = regionMad(plain.out, driven.out, EYES);
      const mouth = regionMad(plain.out, driven.out, MOUTH);
      console.log('mean |Δgray|: eyes', eyes.toFixed(2), 'mouth', mouth.toFixed(2));
      expect(eyes).toBeLessThan(3);
      expect(mouth).toBeGreaterThan(3 * eyes);
    },
  );
});
