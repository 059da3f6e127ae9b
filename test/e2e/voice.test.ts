/**
 * Issue #15 end to end: a processing job with a 40-word description and the default
 * voice_generator 0, through the real `npm start` stack (upload → poll → signed download).
 * The public processing_report says the neural Piper voice spoke and the captions were aligned
 * to it; the downloaded video lasts as long as its speech (± 1 frame), the speech is whole (lead
 * and tail silence kept, no cut), the captions carry the description, and the recogniser hears
 * the description in the output's audio.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { normaliseWords, wordEdits } from '../../bench/speech/wer.js';
import { createAsrEngine } from '../../containers/media/engines/asr/engine.js';
import { normalizeText } from '../../containers/media/engines/tts/normalize.js';
import { ProcessingReport } from '../../src/contract/jobs.js';
import { SHARED_MEDIA } from '../support/services.js';
import { duration, frameDb } from '../support/media-measures.js';
import { startStack, type Stack } from './support/stack.js';

// PORT when given (a helper's own port), else below Linux's ephemeral range like the other e2e files.
const PORT = Number(process.env.PORT) || 30_000 + Math.floor(Math.random() * 2_000);
const KEY = 'e2e-voice';
const CLIP = join(SHARED_MEDIA, 'talking_head/retalking_face3.mp4'); // 25 fps, 5.04 s
const FRAME_SEC = 1 / 25;
const DESCRIPTION =
  'Good afternoon, welcome to our small bakery. Every morning at 6:30 we bake bread, rolls and ' +
  'pastries from local flour. This week, a loaf costs $4.50, and on Friday Dr. Patel will show ' +
  'children how to shape their own pretzels.';

let stack: Stack;
const tmp = mkdtempSync(join(tmpdir(), 'e2e-voice-'));
beforeAll(async () => {
  stack = await startStack({ port: PORT, containerPort: PORT + 1, keys: KEY });
});
afterAll(async () => {
  await stack?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** Mono 16 kHz PCM of a file's audio. */
function pcm16k(path: string): Int16Array {
  const raw = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', path, '-ac', '1', '-ar', '16000', '-f', 's16le', 'pipe:1'],
    {
      maxBuffer: 1 << 27,
    },
  );
  return new Int16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + (raw.byteLength & ~1)));
}

/** Seconds of a WebVTT time (`hh:mm:ss.mmm` or `mm:ss.mmm`). */
const secondsOf = (t: string) => t.split(':').reduce((sum, part) => sum * 60 + Number(part), 0);

describe('process-video with a 40-word description and voice_generator 0 (issue #15)', () => {
  it(
    'should speak with the neural voice, align the captions to it and last as long as the speech',
    { timeout: 900_000 },
    async () => {
      expect(DESCRIPTION.split(/\s+/)).toHaveLength(40);
      const fd = new FormData();
      fd.append('file', new Blob([readFileSync(CLIP)]), 'face.mp4');
      fd.append('description', DESCRIPTION);
      fd.append('blur_background', 'false');
      const created = await fetch(`${stack.base}/api/process-video`, {
        method: 'POST',
        body: fd,
        headers: { 'X-API-Key': KEY },
      });
      expect(created.status).toBe(200);
      const { video_id } = (await created.json()) as { video_id: string };
      type Final = {
        status: string;
        error_message: string | null;
        download_url: string | null;
        processing_report?: ProcessingReport;
      };
      const done = await vi.waitUntil(
        async () => {
          const res = await fetch(`${stack.base}/api/status/${video_id}`, { headers: { 'X-API-Key': KEY } });
          const body = (await res.json()) as Final;
          return body.status === 'completed' || body.status === 'failed' ? body : false;
        },
        { timeout: 840_000, interval: 1_000 },
      );
      expect(done, stack.log()).toMatchObject({ status: 'completed', error_message: null });

      // The report: the neural voice spoke, the captions were aligned to it, the clip looped under it.
      const report = ProcessingReport.parse(done.processing_report);
      expect(report.voice).toEqual({ engine: 'piper', voice_id: 'en_US-joe-medium' });
      expect(report.captions).toBe('alignment');
      expect(report.output.fit).toBe('loop');
      expect(report.notes.join(' ')).not.toMatch(/espeak|not installed|could not be loaded/);

      const out = join(tmp, 'out.mp4');
      const video = await fetch(done.download_url!);
      expect(video.status).toBe(200);
      writeFileSync(out, new Uint8Array(await video.arrayBuffer()));

      // Duration = speech ± 1 frame: the video and the speech track end together, as reported.
      const speechSec = duration(out, 'a:0');
      expect(speechSec).toBeGreaterThan(10); // 40 words
      expect(Math.abs(duration(out, 'v:0') - speechSec)).toBeLessThanOrEqual(FRAME_SEC + 1e-3);
      expect(Math.abs(report.output.duration_sec - speechSec)).toBeLessThanOrEqual(FRAME_SEC + 1e-3);
      // The speech track is the whole synthesis: it opens and closes on the voice's lead and tail
      // silence (0.08 / 0.15 s), so nothing was cut off and nothing of the source's audio was added.
      const pcm = pcm16k(out);
      const db = frameDb(pcm, 16_000);
      const voiced = db.map((d) => d > -45);
      const firstVoiced = voiced.indexOf(true) / 100;
      const lastVoiced = voiced.lastIndexOf(true) / 100;
      expect(firstVoiced).toBeGreaterThanOrEqual(0.04);
      expect(firstVoiced).toBeLessThan(0.3);
      expect(speechSec - lastVoiced).toBeGreaterThanOrEqual(0.05);
      expect(speechSec - lastVoiced).toBeLessThan(0.4);

      // The captions are the description's words, timed inside the speech.
      const vtt = execFileSync(
        'ffmpeg',
        ['-v', 'error', '-i', out, '-map', '0:s', '-f', 'webvtt', 'pipe:1'],
        {
          encoding: 'utf8',
        },
      );
      const cues = [...vtt.matchAll(/([\d:.]+) --> ([\d:.]+)\n(.+)/g)];
      expect(cues.map((m) => m[3]).join(' ')).toBe(DESCRIPTION);

      // The job's caption file: the description's words as written, on the output's timeline (its
      // first cue opens where the voice does, as the track inside the video; its last ends with it).
      const file = await fetch(`${stack.base}/api/jobs/${video_id}/captions.vtt`, {
        headers: { 'X-API-Key': KEY },
      });
      expect(file.status).toBe(200);
      expect(file.headers.get('content-language')).toBe('en');
      const text = await file.text();
      expect(text.startsWith('WEBVTT\nLanguage: en\n')).toBe(true);
      const fileCues = [...text.matchAll(/([\d:.]+) --> ([\d:.]+)\n((?:.+\n?)+)/g)].map((m) => ({
        start: secondsOf(m[1]),
        end: secondsOf(m[2]),
        text: m[3].trim().replace(/\n/g, ' '),
      }));
      expect(fileCues.map((c) => c.text).join(' ')).toBe(DESCRIPTION);
      expect(Math.abs(fileCues[0].start - firstVoiced)).toBeLessThan(0.2);
      expect(fileCues[0].start).toBeCloseTo(secondsOf(cues[0][1]), 2);
      expect(Math.abs(fileCues.at(-1)!.end - lastVoiced)).toBeLessThan(0.4);
      expect(fileCues.at(-1)!.end).toBeLessThanOrEqual(speechSec + 1e-3);

      // What the output says is the description (the recogniser's default, Whisper).
      using asr = await createAsrEngine();
      const heard = (await asr.transcribe(pcm)).words.map((w) => w.word).join(' ');
      const ref = normaliseWords(normalizeText(DESCRIPTION));
      const wer = wordEdits(ref, normaliseWords(normalizeText(heard))) / ref.length;
      console.log(
        `e2e voice: ${speechSec.toFixed(2)} s of speech, WER ${(100 * wer).toFixed(1)} % — ${heard}`,
      );
      expect(wer).toBeLessThanOrEqual(0.15);
    },
  );
});
