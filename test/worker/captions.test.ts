import { env, SELF } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { BOB, call, expectError, fixture, post, waitForJob, type Status } from './helpers.js';

interface ParsedCue {
  start: number;
  end: number;
  lines: string[];
}

const seconds = (t: string) => {
  const [h, m, s] = t.replace(',', '.').split(':');
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
};

/** Parses a WebVTT or SubRip file of numbered cues. */
function parseCues(text: string, separator: '.' | ',', language = 'en'): ParsedCue[] {
  const blocks = text.trim().split('\n\n');
  if (separator === '.') expect(blocks.shift()).toBe(`WEBVTT\nLanguage: ${language}`);
  return blocks.map((block, i) => {
    const [n, times, ...lines] = block.split('\n');
    expect(n).toBe(String(i + 1));
    const m = new RegExp(
      `^(\\d\\d:\\d\\d:\\d\\d\\${separator}\\d{3}) --> (\\d\\d:\\d\\d:\\d\\d\\${separator}\\d{3})$`,
    ).exec(times);
    expect(m, times).not.toBeNull();
    return { start: seconds(m![1]), end: seconds(m![2]), lines };
  });
}

async function analyzed(
  path: string,
  name: string,
): Promise<{ id: string; result: Record<string, unknown> }> {
  const res = await post('/api/analyze-video', {
    file: { bytes: await fixture(path), filename: name, type: 'audio/wav' },
  });
  expect(res.status).toBe(200);
  const { video_id } = await res.json<{ video_id: string }>();
  const done = await waitForJob(video_id);
  expect(done.status).toBe('completed');
  return { id: video_id, result: done.result! };
}

const norm = (w: string) => w.toLowerCase().replace(/[^a-z']/g, '');

describe('captions of an analysis job', () => {
  it('should caption the JFK speech from its word times, as WebVTT and SubRip, for its key only', async () => {
    const { id, result } = await analyzed('shared/speech/jfk.wav', 'jfk.wav');
    const vtt = await call(`/api/jobs/${id}/captions.vtt`);
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-type')).toMatch(/^text\/vtt/);
    expect(vtt.headers.get('content-language')).toBe('en');
    const cues = parseCues(await vtt.text(), '.');
    const srt = await call(`/api/jobs/${id}/captions.srt`);
    expect(srt.status).toBe(200);
    expect(srt.headers.get('content-type')).toMatch(/^application\/x-subrip/);
    expect(parseCues(await srt.text(), ',')).toEqual(cues);

    // The cues hold the transcript's words, in order, within the limits.
    const transcript = result.transcript as string;
    expect(cues.flatMap((c) => c.lines.join(' ').split(' '))).toEqual(transcript.split(' '));
    expect(cues.length).toBeGreaterThan(1);
    const duration = (result.summary as { duration_sec: number }).duration_sec;
    let last = 0;
    for (const cue of cues) {
      expect(cue.start).toBeGreaterThanOrEqual(last);
      expect(cue.end).toBeGreaterThan(cue.start);
      expect(cue.end - cue.start).toBeLessThanOrEqual(7);
      expect(cue.end).toBeLessThanOrEqual(duration + 0.01);
      expect(cue.lines.length).toBeLessThanOrEqual(2);
      for (const line of cue.lines) expect(line.length).toBeLessThanOrEqual(42);
      last = cue.end;
    }
    // Against the word times the result reports (parts of speech): each timed word lies in a cue holding it.
    const pos = result.pos as Record<
      string,
      { word: string; timestamps: { start: number; end: number }[] }[]
    >;
    const timedWords = Object.values(pos).flatMap((entries) =>
      entries.flatMap((e) => e.timestamps.map((t) => ({ word: norm(e.word), ...t }))),
    );
    expect(timedWords.length).toBeGreaterThan(5);
    for (const w of timedWords) {
      const cue = cues.find((c) => c.start <= w.start + 0.0005 && w.end <= c.end + 0.0005);
      expect(cue, `${w.word} at ${w.start}`).toBeDefined();
      expect(cue!.lines.join(' ').split(' ').map(norm)).toContain(w.word);
    }

    await expectError(await call(`/api/jobs/${id}/captions.vtt`, { key: BOB }), 404, 'not_found');
    await expectError(await call(`/api/jobs/vid_${'x'.repeat(22)}/captions.srt`), 404, 'not_found');
  });

  it('should answer a clear 4xx for a job without speech, a failed job and a running one', async () => {
    const tone = await analyzed('generated/tone-3s.mp4', 'tone.mp4');
    await expectError(await call(`/api/jobs/${tone.id}/captions.vtt`), 404, 'no_captions');

    const junk = await post('/api/analyze-video', {
      file: { bytes: await fixture('generated/binary-junk.mp4'), filename: 'junk.mp4' },
    });
    const { video_id } = await junk.json<{ video_id: string }>();
    const early = await call(`/api/jobs/${video_id}/captions.vtt`);
    await expectError(early, 409, 'job_not_completed');
    await waitForJob(video_id);
    await expectError(await call(`/api/jobs/${video_id}/captions.srt`), 409, 'job_not_completed');
  });
});

/** Frame of the loudness measure of the output's audio, s. */
const FRAME_SEC = 0.02;

/**
 * Where the output's audio is loud (speech), measured on the output itself: its 16 kHz PCM from
 * the real container, 20 ms frames above a tenth of the loudest frame's RMS (−20 dB).
 */
async function loudSpan(downloadUrl: string): Promise<{ onset: number; offset: number }> {
  const mp4 = await SELF.fetch(downloadUrl);
  expect(mp4.status).toBe(200);
  const res = await fetch(`${env.CONTAINER_URL}/audio`, { method: 'POST', body: await mp4.arrayBuffer() });
  expect(res.status).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const pcm = new Int16Array(bytes.buffer, 0, bytes.byteLength >> 1);
  const n = Math.round(16_000 * FRAME_SEC);
  const rms: number[] = [];
  for (let i = 0; i + n <= pcm.length; i += n) {
    let sum = 0;
    for (let k = i; k < i + n; k++) sum += pcm[k] * pcm[k];
    rms.push(Math.sqrt(sum / n));
  }
  const threshold = Math.max(...rms) / 10;
  const first = rms.findIndex((r) => r > threshold);
  let last = rms.length - 1;
  while (last > 0 && rms[last] <= threshold) last--;
  return { onset: first * FRAME_SEC, offset: (last + 1) * FRAME_SEC };
}

async function processed(
  fields: Record<string, Parameters<typeof post>[1][string]>,
): Promise<{ id: string; done: Status }> {
  const res = await post('/api/process-video', {
    file: { bytes: await fixture('generated/tone-3s.mp4'), filename: 'clip.mp4', type: 'video/mp4' },
    blur_background: 'false',
    ...fields,
  });
  expect(res.status).toBe(200);
  const { video_id } = await res.json<{ video_id: string }>();
  const done = await waitForJob(video_id, undefined, 150_000);
  expect(done.status, done.error_message ?? '').toBe('completed');
  return { id: video_id, done };
}

/** The cues of both files (the same cues), checked against the output: in order, within its duration and the limits. */
async function captionsOf(id: string, done: Status, language: string): Promise<ParsedCue[]> {
  const vtt = await call(`/api/jobs/${id}/captions.vtt`);
  expect(vtt.status).toBe(200);
  expect(vtt.headers.get('content-language')).toBe(language);
  const cues = parseCues(await vtt.text(), '.', language);
  const srt = await call(`/api/jobs/${id}/captions.srt`);
  expect(srt.status).toBe(200);
  expect(srt.headers.get('content-language')).toBe(language);
  expect(parseCues(await srt.text(), ',')).toEqual(cues);
  const duration = done.processing_report!.output.duration_sec;
  let last = 0;
  for (const cue of cues) {
    expect(cue.start).toBeGreaterThanOrEqual(last);
    expect(cue.end).toBeGreaterThan(cue.start);
    expect(cue.end - cue.start).toBeLessThanOrEqual(7);
    expect(cue.lines.length).toBeLessThanOrEqual(2);
    for (const line of cue.lines) expect(line.length).toBeLessThanOrEqual(42);
    last = cue.end;
  }
  expect(last).toBeLessThanOrEqual(duration + 0.001);
  return cues;
}

/**
 * The speech's first and last cue against where the output is loud: the words are on the output's
 * timeline. A word's start is within a few frames of the loudness onset; its end may carry a fading
 * tail the threshold cuts, hence the wider margin there.
 */
async function expectOnSpeech(cues: ParsedCue[], done: Status): Promise<void> {
  const { onset, offset } = await loudSpan(done.download_url!);
  expect(
    Math.abs(cues[0].start - onset),
    `first cue ${cues[0].start} s, speech from ${onset} s`,
  ).toBeLessThan(0.2);
  const end = cues[cues.length - 1].end;
  expect(Math.abs(end - offset), `last cue ends ${end} s, speech until ${offset} s`).toBeLessThan(0.4);
}

describe('captions of a processing job', () => {
  it('should caption speech synthesized from the description with its words, timed on the output', async () => {
    // Leading words the aligner must place after the voice's own lead-in silence.
    const script =
      'Welcome to the quarterly review. Our team shipped three features, and the customers noticed.';
    const { id, done } = await processed({ description: script, voice_generator: '0' });
    expect(done.processing_report!.voice?.engine).toBe('piper');
    const cues = await captionsOf(id, done, 'en');
    expect(cues.flatMap((c) => c.lines.join(' ').split(' '))).toEqual(script.split(' '));
    // A sentence end starts a new cue.
    expect(cues.length).toBeGreaterThanOrEqual(2);
    expect(cues[0].lines.join(' ')).toBe('Welcome to the quarterly review.');
    await expectOnSpeech(cues, done);

    await expectError(await call(`/api/jobs/${id}/captions.vtt`, { key: BOB }), 404, 'not_found');
    // Deleting the job removes its caption files with its output.
    expect(await env.MEDIA.head(`outputs/${id}/captions.vtt`)).not.toBeNull();
    expect((await call(`/api/jobs/${id}`, { method: 'DELETE' })).status).toBeLessThan(300);
    await vi.waitUntil(
      async () => (await env.MEDIA.list({ prefix: `outputs/${id}/` })).objects.length === 0,
      {
        timeout: 10_000,
      },
    );
    await expectError(await call(`/api/jobs/${id}/captions.srt`), 404, 'not_found');
  });

  it('should speak a description in another language in it, and caption it with its words', async () => {
    const script =
      'Buenos días a todos. Hoy vamos a hablar del cambio climático y de lo que podemos hacer en nuestras ciudades.';
    const { id, done } = await processed({ description: script, voice_generator: '0' });
    expect(done.processing_report!.voice).toEqual({ engine: 'espeak-ng', voice_id: 'es+m3' });
    expect(done.processing_report!.notes.join(' ')).toContain('the text is in Spanish (es)');
    // Timed by the recogniser (the aligner hears English), worded by the script.
    const cues = await captionsOf(id, done, 'es');
    expect(cues.flatMap((c) => c.lines.join(' ').split(' '))).toEqual(script.split(' '));
    await expectOnSpeech(cues, done);
  });

  it('should caption supplied speech in its own language, transcribed and timed on the output', async () => {
    const { id, done } = await processed({
      voice_generator: '2',
      audio: { bytes: await fixture('generated/speech-de.wav'), filename: 'rede.wav', type: 'audio/wav' },
    });
    const cues = await captionsOf(id, done, 'de');
    const text = cues
      .map((c) => c.lines.join(' '))
      .join(' ')
      .toLowerCase();
    expect(text).toMatch(/aussichten|insel|wetter/);
    expect(text.split(' ')).not.toContain('the');
    await expectOnSpeech(cues, done);
  });

  it('should answer no_captions for a processing job without new speech', async () => {
    const { id } = await processed({});
    await expectError(await call(`/api/jobs/${id}/captions.vtt`), 404, 'no_captions');
    await expectError(await call(`/api/jobs/${id}/captions.srt`), 404, 'no_captions');
  });
});
