import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRenderRoutes } from '../../containers/media/engines/render/index.js';
import {
  ENVELOPE_HZ,
  estimateLag,
  measureAvOffset,
  speechEnvelope,
  type AvOffsetResult,
} from '../../containers/media/engines/lipsync/index.js';
import { probeFile } from '../../containers/media/core/ffmpeg.js';
import { SHARED_MEDIA } from '../support/services.js';
import { answeringErrors } from '../../containers/media/server/errors.js';

// Real HDTF footage (512², 25 fps, 8 s) whose own reading is confident (0.4) and at the in-sync
// calibration point; the AI lip-synced clips of the same folder read below the confidence gate.
// Cost: three face-mesh passes over 200 frames plus two 8 s renders (~40–80 s on 2 busy cores).
const CLIP = join(SHARED_MEDIA, 'talking_head/sadtalker_wda_aoc.mp4');
/** Allowed error of the estimator and of the corrected output, ms (the bound). */
const TOLERANCE_MS = 40;
const tmp = mkdtempSync(join(tmpdir(), 'lipsync-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Copies CLIP with its audio moved `ms` later (negative: earlier), video untouched. */
function shiftAudio(ms: number): string {
  const out = join(tmp, `shift${ms}.mp4`);
  const af = ms >= 0 ? `adelay=${ms}:all=1` : `atrim=start=${-ms / 1000},asetpts=PTS-STARTPTS`;
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', CLIP, '-af', af, '-c:v', 'copy', '-c:a', 'aac', out]);
  return out;
}

/** How late `path`'s audio is versus CLIP's audio, ms (audio against audio: exact up to a few ms). */
async function audioShiftMs(path: string): Promise<number> {
  const est = estimateLag(await speechEnvelope(CLIP), await speechEnvelope(path), ENVELOPE_HZ, {
    bandHz: [0.5, 20],
  });
  return est.lagSec * 1000;
}

describe('POST /render lip_sync_correction without new speech', () => {
  let original: AvOffsetResult;
  beforeAll(async () => {
    original = await measureAvOffset(CLIP, await probeFile(CLIP));
  }, 120_000);

  it('should read the original clip as in sync, with a confidence above the gate', () => {
    expect(original.details.applied).toBe(true);
    expect(Math.abs(original.lagSec * 1000)).toBeLessThanOrEqual(TOLERANCE_MS);
  });

  for (const delayMs of [300, -200]) {
    it(
      `should measure audio moved by ${delayMs} ms and move it back to within ${TOLERANCE_MS} ms`,
      { timeout: 180_000 },
      async () => {
        const shifted = shiftAudio(delayMs);
        expect(Math.abs((await audioShiftMs(shifted)) - delayMs)).toBeLessThanOrEqual(5); // the fixture itself

        const fd = new FormData();
        fd.set('source', new Blob([readFileSync(shifted)]), 'source.mp4');
        fd.set('options', JSON.stringify({ blur_background: false, lip_sync_correction: true }));
        const res = await answeringErrors(createRenderRoutes()).request('/render', {
          method: 'POST',
          body: fd,
        });
        expect(res.status).toBe(200);
        const { lip_sync } = JSON.parse(res.headers.get('x-render-report')!);
        expect(lip_sync).toMatchObject({ mode: 'offset', applied: true });

        // The estimator sees the added delay, relative to the clip's own reading.
        expect(Math.abs(lip_sync.raw_lag_ms - original.details.raw_lag_ms - delayMs)).toBeLessThanOrEqual(
          TOLERANCE_MS,
        );

        // The output really is shifted: its audio versus the original's audio is the residual
        // offset relative to the original's sync (the video timing is unchanged by the render).
        const out = join(tmp, `out${delayMs}.mp4`);
        writeFileSync(out, Buffer.from(await res.arrayBuffer()));
        const residualMs = await audioShiftMs(out);
        expect(Math.abs(residualMs - (delayMs - lip_sync.measured_lag_ms))).toBeLessThanOrEqual(15);
        expect(Math.abs(residualMs)).toBeLessThanOrEqual(TOLERANCE_MS);
      },
    );
  }
});
