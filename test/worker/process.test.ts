import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { BOB, expectError, fixture, post, status, waitForJob } from './helpers.js';

const video = async () => ({
  bytes: await fixture('generated/tone-3s.mp4'),
  filename: 'clip.mp4',
  type: 'video/mp4',
});
const audio = async () => ({
  bytes: await fixture('generated/speech.wav'),
  filename: 'speech.wav',
  type: 'audio/wav',
});

describe('process-video rules', () => {
  it('should reject audio with a voice_generator other than 2 (rule 5)', async () => {
    await expectError(
      await post('/api/process-video', { file: await video(), audio: await audio() }),
      400,
      'invalid_field',
      'audio',
    );
    await expectError(
      await post('/api/process-video', { file: await video(), audio: await audio(), voice_generator: '1' }),
      400,
      'invalid_field',
      'audio',
    );
  });

  it('should reject unknown voice_generator and lip-sync model values', async () => {
    await expectError(
      await post('/api/process-video', { file: await video(), voice_generator: '3' }),
      400,
      'invalid_field',
      'voice_generator',
    );
    await expectError(
      await post('/api/process-video', { file: await video(), lip_sync_correction_model: 'wav2lip' }),
      400,
      'invalid_field',
      'lip_sync_correction_model',
    );
  });

  it('should reject booleans that are not the text true or false (rule 8)', async () => {
    for (const field of ['blur_background', 'lip_sync_correction', 'eye_contact_correction']) {
      await expectError(
        await post('/api/process-video', { file: await video(), [field]: 'True' }),
        400,
        'invalid_field',
        field,
      );
    }
  });

  it('should need a file or a registered video_id', async () => {
    await expectError(
      await post('/api/process-video', { description: 'hello' }),
      400,
      'missing_file',
      'file',
    );
  });

  it('should need audio with voice_generator 2 (our documented decision)', async () => {
    await expectError(
      await post('/api/process-video', { file: await video(), voice_generator: '2' }),
      400,
      'invalid_field',
      'audio',
    );
  });

  it('should accept voice_id and credential with generators other than 1 and ignore them (rules 6, 7)', async () => {
    const res = await post('/api/process-video', {
      file: await video(),
      voice_id: 'x',
      credential_voice_generator: 'y',
      blur_background: 'false',
    });
    expect(res.status).toBe(200);
    const { video_id } = await res.json<{ video_id: string }>();
    const job = await env.JOB.get(env.JOB.idFromName(video_id)).get();
    expect(job?.options).toMatchObject({
      voice_id: null,
      credential_voice_generator: null,
      speech: 'original',
      voice_generator: '0',
    });
    await waitForJob(video_id);
  });

  it('should accept description with 2 + audio and not use it (rule 4)', async () => {
    const res = await post('/api/process-video', {
      file: await video(),
      voice_generator: '2',
      audio: await audio(),
      description: 'ignored',
      blur_background: 'false',
    });
    expect(res.status).toBe(200);
    const { video_id } = await res.json<{ video_id: string }>();
    const job = await env.JOB.get(env.JOB.idFromName(video_id)).get();
    expect(job?.options).toMatchObject({ description: null, speech: 'supplied' });
    expect(job?.audio?.key).toBe(`uploads/${video_id}/audio`);
    await waitForJob(video_id);
  });

  it('should keep nothing of a rejected request', async () => {
    const before = (await env.MEDIA.list({ prefix: 'uploads/' })).objects.length;
    await post('/api/process-video', { file: await video(), audio: await audio(), voice_generator: '0' });
    expect((await env.MEDIA.list({ prefix: 'uploads/' })).objects.length).toBe(before);
  });
});

describe('processing jobs and downloads', () => {
  it('should produce a playable MP4 behind a signed link that needs no key', async () => {
    const res = await post('/api/process-video', { file: await video(), blur_background: 'false' });
    const { video_id } = await res.json<{ video_id: string }>();
    const done = await waitForJob(video_id);
    expect(done.error_message).toBeNull();
    expect(done.status).toBe('completed');
    expect(done.progress).toBe(100);
    expect(done.result).toBeNull();
    // Extension: what the render did. Nothing was asked but the plain re-encode.
    expect(done.processing_report).toMatchObject({
      options_applied: [],
      lip_sync: null,
      captions: null,
      notes: [],
    });
    expect(done.processing_report!.output).toMatchObject({ fit: 'source' });
    expect(done.processing_report!.output.width).toBeGreaterThan(0);
    const url = new URL(done.download_url!);
    expect(url.pathname).toBe(`/files/outputs/${video_id}/video.mp4`);
    expect(url.searchParams.get('token')).toBeTruthy();
    expect(Number(url.searchParams.get('expires'))).toBeGreaterThan(Date.now() / 1000);

    const { SELF } = await import('cloudflare:test');
    const file = await SELF.fetch(done.download_url!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(4, 8))).toBe('ftyp');
    // faststart: the index (moov) comes before the media data (mdat).
    const text = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.length, 200_000)));
    expect(text.indexOf('moov')).toBeGreaterThan(0);
    expect(text.indexOf('moov')).toBeLessThan(text.indexOf('mdat'));

    const head = await SELF.fetch(done.download_url!, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(bytes.length);

    const range = await SELF.fetch(done.download_url!, { headers: { range: 'bytes=4-7' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes 4-7/${bytes.length}`);
    expect(await range.text()).toBe('ftyp');
    const bad = await SELF.fetch(done.download_url!, { headers: { range: `bytes=${bytes.length + 10}-` } });
    expect(bad.status).toBe(416);
    // Conditional requests (issue #12, finding 7): If-None-Match → 304; If-Range with a stale tag → the whole file.
    const etag = head.headers.get('etag')!;
    const cached = await SELF.fetch(done.download_url!, { headers: { 'if-none-match': etag } });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe('');
    expect((await SELF.fetch(done.download_url!, { headers: { 'if-none-match': '"other"' } })).status).toBe(
      200,
    );
    const resumed = await SELF.fetch(done.download_url!, {
      headers: { range: 'bytes=4-7', 'if-range': etag },
    });
    expect(resumed.status).toBe(206);
    await resumed.arrayBuffer();
    const stale = await SELF.fetch(done.download_url!, {
      headers: { range: 'bytes=4-7', 'if-range': '"stale"' },
    });
    expect(stale.status).toBe(200);
    expect(Number(stale.headers.get('content-length'))).toBe(bytes.length);
    await stale.arrayBuffer();

    const tampered = new URL(done.download_url!);
    tampered.searchParams.set(
      'token',
      tampered.searchParams.get('token')!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
    );
    await expectError(await SELF.fetch(tampered), 403, 'invalid_signature');
    const otherFile = new URL(done.download_url!);
    otherFile.pathname = `/files/results/${video_id}.json`;
    await expectError(await SELF.fetch(otherFile), 403, 'invalid_signature');
    const later = new URL(done.download_url!);
    later.searchParams.set('expires', String(Number(later.searchParams.get('expires')) + 1));
    await expectError(await SELF.fetch(later), 403, 'invalid_signature');
  });

  it("should move the job's progress while the render encodes, not only between steps", async () => {
    const res = await post('/api/process-video', {
      file: { bytes: await fixture('generated/bars-720p-16s.mp4'), filename: 'bars.mp4', type: 'video/mp4' },
    });
    const { video_id } = await res.json<{ video_id: string }>();
    // Followed with long-polls, which answer each change of progress (after a second).
    const seen: number[] = [];
    for (let s = await status(video_id); s.status === 'pending' || s.status === 'processing';) {
      if (s.status === 'processing') seen.push(s.progress);
      s = await status(`${video_id}?wait=30`);
      if (s.status === 'completed') expect(s.download_url).toMatch(/\/files\/outputs\//);
      else if (s.status !== 'processing' && s.status !== 'pending') throw new Error(`job ended ${s.status}`);
    }
    // The render is the whole plan of a blur-only job: figures between its start (0) and end (100).
    expect(seen.filter((p) => p > 1 && p < 99).length).toBeGreaterThanOrEqual(1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('should report a requested option it could not apply, and not claim it', async () => {
    // A test pattern with a tone: no face and no speech, so no lip-sync offset can be measured.
    const res = await post('/api/process-video', {
      file: await video(),
      blur_background: 'false',
      lip_sync_correction: 'true',
    });
    const { video_id } = await res.json<{ video_id: string }>();
    const done = await waitForJob(video_id);
    expect(done.status).toBe('completed');
    expect(done.processing_report!.options_applied).not.toContain('lip_sync_correction');
    expect(done.processing_report!.lip_sync).toEqual({ mode: 'none', audio_shift_ms: null });
    expect(done.processing_report!.notes.join(' ')).toMatch(/lip_sync_correction/);
  });

  it('should refuse an expired link with 403', async () => {
    const { signDownloadUrl } = await import('../../src/storage/signed-url.js');
    await env.MEDIA.put('outputs/vid_expired/video.mp4', 'x');
    const url = await signDownloadUrl(
      'http://api.test',
      'test-signing-secret',
      'outputs/vid_expired/video.mp4',
      60,
      Date.now() - 3_600_000,
    );
    const { SELF } = await import('cloudflare:test');
    await expectError(await SELF.fetch(url), 403, 'link_expired');
  });
});

describe('avatars', () => {
  it('should register an avatar and process it by id; the uploaded file is ignored (rule 1)', async () => {
    const reg = await post('/api/register-avatar', { file: await video() });
    expect(reg.status).toBe(200);
    const body = await reg.json<{ video_id: string; registration_status: boolean }>();
    expect(body).toEqual({ video_id: expect.stringMatching(/^avt_/), registration_status: true });

    const junk = { bytes: await fixture('generated/binary-junk.mp4'), filename: 'junk.mp4' };
    const res = await post('/api/process-video', {
      video_id: body.video_id,
      file: junk,
      blur_background: 'false',
    });
    expect(res.status).toBe(200);
    const { video_id } = await res.json<{ video_id: string }>();
    expect(await env.MEDIA.head(`uploads/${video_id}/source`)).toBeNull();
    const done = await waitForJob(video_id);
    expect(done.status).toBe('completed');
  });

  it("should answer 404 for another key's avatar", async () => {
    const reg = await post('/api/register-avatar', { file: await video() });
    const { video_id } = await reg.json<{ video_id: string }>();
    await expectError(
      await post('/api/process-video', { video_id }, BOB),
      404,
      'avatar_not_found',
      'video_id',
    );
    await expectError(
      await post('/api/process-video', { video_id: 'avt_nonexistent' }),
      404,
      'avatar_not_found',
      'video_id',
    );
  });

  it('should require a file to register', async () => {
    await expectError(await post('/api/register-avatar', {}), 400, 'missing_file', 'file');
  });
});
