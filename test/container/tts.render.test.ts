import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRenderReport, summarizeRenderReport } from '../../src/media/render-report.js';
import { ProcessingReport } from '../../src/contract/jobs.js';
import { mouthSpeechCorrelation } from '../../containers/media/engines/mouth/index.js';
import { createRenderRoutes } from '../../containers/media/engines/render/index.js';
import { createTtsRoutes } from '../../containers/media/engines/tts/index.js';
import { duration } from '../support/media-measures.js';
import { SHARED_MEDIA } from '../support/services.js';
import { answeringErrors } from '../../containers/media/server/errors.js';

// A processed video the way the pipeline makes one: POST /tts (generator 0) → POST /render with
// the description as captions and mouth driving on. One render of ~15 s on the frame path: 2–5 min under load.
const CLIP = join(SHARED_MEDIA, 'talking_head/retalking_face3.mp4'); // 590², 25 fps, 5.04 s
const DESCRIPTION =
  'Welcome back to the channel. Today I will show you how we cut our energy bill by 30% in 2025, ' +
  'using three simple changes. First, we replaced bulbs. Second, we fixed the windows. ' +
  'Finally, we set it at 68 degrees.';
const tmp = mkdtempSync(join(tmpdir(), 'tts-render-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sec = (t: string) => t.split(':').reduce((s, p) => s * 60 + Number(p), 0);

describe('process-video with voice_generator 0 and a 40-word description', () => {
  it(
    'should speak with the neural voice, align the captions to it, drive the mouth, and last as long as the speech',
    { timeout: 900_000 },
    async () => {
      expect(DESCRIPTION.split(/\s+/)).toHaveLength(40);
      const tts = await answeringErrors(createTtsRoutes()).request('/tts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ generator: 0, text: DESCRIPTION }),
      });
      expect(tts.status).toBe(200);
      expect(tts.headers.get('x-tts-engine')).toBe('piper');
      const speech = join(tmp, 'speech.wav');
      writeFileSync(speech, Buffer.from(await tts.arrayBuffer()));
      const speechSec = duration(speech);
      expect(speechSec).toBeGreaterThan(10);

      const fd = new FormData();
      fd.set('source', new Blob([readFileSync(CLIP)]), 'source.mp4');
      fd.set('speech', new Blob([readFileSync(speech)]), 'speech.wav');
      fd.set(
        'options',
        JSON.stringify({ blur_background: false, captions: DESCRIPTION, lip_sync_correction: true }),
      );
      const res = await answeringErrors(createRenderRoutes()).request('/render', {
        method: 'POST',
        body: fd,
      });
      expect(res.status).toBe(200);
      const header = res.headers.get('x-render-report')!;
      const report = JSON.parse(header);
      const out = join(tmp, 'out.mp4');
      writeFileSync(out, Buffer.from(await res.arrayBuffer()));

      // The report says which voice spoke, internally and in the public processing_report.
      expect(report.voice).toEqual({ engine: 'piper', voice_id: 'en_US-joe-medium' });
      const pub = summarizeRenderReport(parseRenderReport(header)!);
      expect(ProcessingReport.parse(pub)).toEqual(pub);
      expect(pub.voice).toEqual({ engine: 'piper', voice_id: 'en_US-joe-medium' });
      expect(pub.captions).toBe('alignment');
      expect(report.notes.join(' ')).not.toContain('forced alignment failed');
      expect(report.captions).toEqual({ cues_from: 'alignment', words: 40 });

      // Duration = speech ± 1 frame (the source loops under the longer speech).
      expect(report.output.fit).toBe('loop');
      expect(Math.abs(duration(out, 'v:0') - speechSec)).toBeLessThanOrEqual(1 / 25 + 1e-3);
      expect(Math.abs(duration(out) - speechSec)).toBeLessThanOrEqual(1 / 25 + 1e-3);

      // Captions follow the voice: cues in order, inside the speech, the first one after the lead-in
      // silence and the last one ending near the end of the speech (not an even split of the clip).
      const vtt = execFileSync(
        'ffmpeg',
        ['-v', 'error', '-i', out, '-map', '0:s', '-f', 'webvtt', 'pipe:1'],
        { encoding: 'utf8' },
      );
      const cues = [...vtt.matchAll(/([\d:.]+) --> ([\d:.]+)\n(.+)/g)].map((m) => ({
        start: sec(m[1]),
        end: sec(m[2]),
        text: m[3],
      }));
      expect(cues.map((c) => c.text).join(' ')).toBe(DESCRIPTION);
      expect(cues[0].start).toBeGreaterThanOrEqual(0.05);
      expect(cues[0].start).toBeLessThan(0.6);
      cues.forEach((c, i) => i && expect(c.start).toBeGreaterThanOrEqual(cues[i - 1].start));
      expect(cues.at(-1)!.end).toBeLessThanOrEqual(speechSec + 0.01);
      expect(cues.at(-1)!.end).toBeGreaterThan(speechSec - 1);

      // Mouth driving follows the new voice.
      expect(report.lip_sync).toMatchObject({ mode: 'embedded' });
      expect(report.options_applied).toContain('lip_sync_correction');
      const m = await mouthSpeechCorrelation(out, speech);
      console.log('mouth–speech correlation with the Piper voice:', m);
      expect(m.faces).toBeGreaterThan(0.95 * m.frames);
      expect(m.r).toBeGreaterThan(0.45);
    },
  );
});
