import { describe, expect, it } from 'vitest';
import { BOB, call, expectError, fixture, post, waitForJob } from './helpers.js';

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
function parseCues(text: string, separator: '.' | ','): ParsedCue[] {
  const blocks = text.trim().split('\n\n');
  if (separator === '.') expect(blocks.shift()).toBe('WEBVTT\nLanguage: en');
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
