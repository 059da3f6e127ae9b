import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { matchedPairs } from '../../bench/speech/wer.js';
import { alignText } from '../../containers/media/engines/asr/align.js';
import { createAsrEngine } from '../../containers/media/engines/asr/engine.js';
import { alignCaptions, wordsFromTokens } from '../../containers/media/engines/render/align.js';
import { WORDS_PER_CUE } from '../../containers/media/engines/render/captions.js';
import { createRenderRoutes } from '../../containers/media/engines/render/index.js';
import { createEmbeddedTtsEngine } from '../../containers/media/engines/tts/index.js';
import { SHARED_MEDIA } from '../support/services.js';
import { configFrom } from '../../containers/media/core/config.js';
import { answeringErrors } from '../../containers/media/server/errors.js';

const CLIP = join(SHARED_MEDIA, 'talking_head/retalking_face3.mp4');
const SPEECH_DIR = join(SHARED_MEDIA, 'speech');
// 54 words, five sentences, a number (spelled by espeak-ng) and a name no dictionary has: one
// grammar for all of it used to fail ("Final result does not match the grammar"), so captions
// fell back to the even split. Aligned phrase by phrase it aligns whole.
const TEXT =
  'Doctor Amara Okonkwo opened the lab at seven in the morning. She counted 42 samples on the bench ' +
  'and wrote every number in her notebook. The river outside was quiet, and the trains had not started ' +
  'yet. By noon the team from Portland arrived with a broken microscope. They laughed and fixed it together.';
const tmp = mkdtempSync(join(tmpdir(), 'captions-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sec = (t: string) => t.split(':').reduce((s, p) => s * 60 + Number(p), 0);

describe('wordsFromTokens', () => {
  it('should keep the text words and give them their tokens span', () => {
    const words = wordsFromTokens("It's well-known — ok", [
      { start: 0, end: 0.2 },
      { start: 0.3, end: 0.5 },
      { start: 0.5, end: 0.8 },
      { start: 1, end: 1.2 },
    ]);
    expect(words).toEqual([
      { word: "It's", start: 0, end: 0.2 },
      { word: 'well-known', start: 0.3, end: 0.8 },
      { word: '—', start: 0.8, end: 0.8 },
      { word: 'ok', start: 1, end: 1.2 },
    ]);
  });
});

async function pcmOf(path: string): Promise<Int16Array> {
  const raw = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', path, '-ac', '1', '-ar', '16000', '-f', 's16le', 'pipe:1'],
    { maxBuffer: 1 << 28 },
  );
  return new Int16Array(raw.buffer, raw.byteOffset, raw.byteLength >> 1);
}

/** Median |start difference| (s) against the pocketsphinx recogniser over the words both have. */
async function asrAgreement(pcm: Int16Array, words: Array<{ word: string; start: number }>) {
  // pocketsphinx times words by its own decode, independent of the aligner that times Whisper's words.
  using asr = await createAsrEngine(configFrom({ ASR_ENGINE: 'pocketsphinx' }).asr);
  const out = await asr.transcribe(pcm);
  // Word by word (no number spelling), so the pairs index both lists as they are.
  const bare = (w: string) => w.toLowerCase().replace(/[^a-z0-9']+/g, '');
  const pairs = matchedPairs(
    words.map((w) => bare(w.word)),
    out.words.map((w) => bare(w.word)),
  );
  const errs = pairs.map(([r, h]) => Math.abs(words[r].start - out.words[h].start)).sort((a, b) => a - b);
  return { pairs: pairs.length, medianSec: errs[Math.floor((errs.length - 1) / 2)] };
}

function expectWellFormed(
  words: Array<{ start: number; end: number; confidence: number }>,
  durationSec: number,
) {
  // confidence 0 marks a word left out of the alignment and interpolated: none may be.
  expect(words.every((w) => w.confidence > 0)).toBe(true);
  expect(words.every((w, i) => i === 0 || w.start >= words[i - 1].end - 1e-6)).toBe(true);
  expect(words.every((w) => w.start >= 0 && w.end > w.start && w.end <= durationSec + 0.01)).toBe(true);
}

describe('alignText phrase by phrase', () => {
  it(
    'should align every word of a long espeak-ng paragraph, in agreement with the recogniser',
    { timeout: 300_000 },
    async () => {
      const speech = join(tmp, 'paragraph.wav');
      execFileSync('espeak-ng', ['-v', 'en-us+m3', '-s', '160', '-w', speech, TEXT]);
      const pcm = await pcmOf(speech);
      const words = await alignText(pcm, TEXT);
      // The aligner keeps the text's own words ("42" stays "42": captions show what was written).
      expect(words.map((w) => w.word).join(' ')).toBe(
        TEXT.toLowerCase()
          .replace(/[^a-z0-9'\s]+/g, ' ')
          .trim()
          .split(/\s+/)
          .join(' '),
      );
      expectWellFormed(words, pcm.length / 16_000);
      // Sentences start after their pause, not inside it: "she" follows "morning" by > 0.2 s.
      const she = words.findIndex((w) => w.word === 'she');
      expect(words[she].start - words[she - 1].end).toBeGreaterThan(0.2);
      const { pairs, medianSec } = await asrAgreement(pcm, words);
      expect(pairs).toBeGreaterThanOrEqual(5);
      expect(medianSec).toBeLessThanOrEqual(0.1);
    },
  );

  it('should align the whole reference of a real recording (jfk.wav)', { timeout: 300_000 }, async () => {
    const pcm = await pcmOf(join(SPEECH_DIR, 'jfk.wav'));
    const reference = readFileSync(join(SPEECH_DIR, 'jfk.txt'), 'utf8');
    const words = await alignText(pcm, reference);
    expect(words).toHaveLength(22);
    expectWellFormed(words, pcm.length / 16_000);
    const { pairs, medianSec } = await asrAgreement(pcm, words);
    expect(pairs).toBeGreaterThanOrEqual(10);
    expect(medianSec).toBeLessThanOrEqual(0.05);
  });
});

describe('POST /render captions with synthesized speech', () => {
  it(
    'should fall back to the even split, with a note, when alignment fails',
    { timeout: 300_000 },
    async () => {
      const speech = join(tmp, 'other.wav');
      execFileSync('espeak-ng', ['-v', 'en-us', '-w', speech, 'Something else entirely.']);
      const fd = new FormData();
      fd.set('source', new Blob([readFileSync(CLIP)]), 'source.mp4');
      fd.set('speech', new Blob([readFileSync(speech)]), 'speech.wav');
      fd.set(
        'options',
        JSON.stringify({
          blur_background: false,
          captions: 'Please go forward ten meters and then turn left now.',
        }),
      );
      const res = await answeringErrors(createRenderRoutes()).request('/render', {
        method: 'POST',
        body: fd,
      });
      expect(res.status).toBe(200);
      const report = JSON.parse(res.headers.get('x-render-report')!);
      expect(report.captions.cues_from).toBe('even-split');
      expect(report.notes.join(' ')).toContain('forced alignment failed');
      expect(report.notes).toContain('captions: cue times are an even split of the output');
    },
  );

  it(
    "should give a script the aligner cannot read its own words at the recogniser's times",
    { timeout: 300_000 },
    async () => {
      const script = 'Добрый день! Сегодня мы поговорим о погоде и о том, что нас ждёт на этой неделе.';
      const speech = join(tmp, 'russian.wav');
      writeFileSync(speech, (await createEmbeddedTtsEngine().synthesize({ text: script })).wav);
      const fd = new FormData();
      fd.set('source', new Blob([readFileSync(CLIP)]), 'source.mp4');
      fd.set('speech', new Blob([readFileSync(speech)]), 'speech.wav');
      fd.set('options', JSON.stringify({ blur_background: false, captions: script, speech_words: true }));
      const res = await answeringErrors(createRenderRoutes()).request('/render', {
        method: 'POST',
        body: fd,
      });
      expect(res.status).toBe(200);
      const report = JSON.parse(res.headers.get('x-render-report')!);
      expect(report.captions).toEqual({ cues_from: 'transcription', words: script.split(/\s+/).length });
      expect(report.notes.join(' ')).not.toContain('even split');
      expect(report.notes.join(' ')).toContain("cue times are those at which the service's recogniser heard");
      const out = join(tmp, 'russian.mp4');
      writeFileSync(out, Buffer.from(await res.arrayBuffer()));
      const vtt = execFileSync('ffmpeg', ['-v', 'error', '-i', out, '-map', '0:s', '-f', 'webvtt', '-'], {
        encoding: 'utf8',
      });
      const cued = vtt
        .split('\n')
        .filter((l) => l && !l.includes('-->') && l !== 'WEBVTT')
        .join(' ')
        .split(/\s+/);
      expect(cued).toEqual(script.split(/\s+/));
    },
  );

  it('should time the cues by forced alignment', { timeout: 300_000 }, async () => {
    const speech = join(tmp, 'speech.wav');
    execFileSync('espeak-ng', ['-v', 'en-us+m3', '-s', '160', '-w', speech, TEXT]);
    const fd = new FormData();
    fd.set('source', new Blob([readFileSync(CLIP)]), 'source.mp4');
    fd.set('speech', new Blob([readFileSync(speech)]), 'speech.wav');
    fd.set('options', JSON.stringify({ blur_background: false, captions: TEXT }));
    const res = await answeringErrors(createRenderRoutes()).request('/render', { method: 'POST', body: fd });
    expect(res.status).toBe(200);
    const report = JSON.parse(res.headers.get('x-render-report')!);
    expect(report.captions).toEqual({ cues_from: 'alignment', words: TEXT.split(/\s+/).length });
    const out = join(tmp, 'out.mp4');
    writeFileSync(out, Buffer.from(await res.arrayBuffer()));

    const vtt = execFileSync('ffmpeg', ['-v', 'error', '-i', out, '-map', '0:s', '-f', 'webvtt', 'pipe:1'], {
      encoding: 'utf8',
    });
    const cues = [...vtt.matchAll(/([\d:.]+) --> ([\d:.]+)\n(.+)/g)].map((m) => ({
      start: sec(m[1]),
      end: sec(m[2]),
      text: m[3],
    }));
    const words = await alignCaptions(speech, TEXT);
    expect(cues.length).toBe(Math.ceil(words.length / WORDS_PER_CUE));
    cues.forEach((cue, i) => {
      const group = words.slice(i * WORDS_PER_CUE, (i + 1) * WORDS_PER_CUE);
      expect(cue.text).toBe(group.map((w) => w.word).join(' '));
      // mov_text stores milliseconds; the cue is the aligned span of its words.
      expect(Math.abs(cue.start - group[0].start)).toBeLessThanOrEqual(0.002);
      expect(Math.abs(cue.end - Math.max(group.at(-1)!.end, group[0].start + 0.2))).toBeLessThanOrEqual(
        0.002,
      );
    });
    // The aligned words really are where espeak spoke them: the first word starts after the
    // leading silence and the last ends before the file does.
    const dur = Number(
      execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', speech], {
        encoding: 'utf8',
      }),
    );
    expect(words[0].start).toBeGreaterThanOrEqual(0);
    expect(words.at(-1)!.end).toBeLessThanOrEqual(dur + 0.01);
    expect(words.every((w, i) => i === 0 || w.start >= words[i - 1].start)).toBe(true);
  });
});
