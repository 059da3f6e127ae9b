/**
 * The typed client and the CLI against the real stack: analyze → wait → result; process →
 * wait → download; register → process by avatar; errors as typed exceptions; CLI exit codes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VideoApiClient, VideoApiError, VideoJobError } from '../../src/client/index.js';
import { generateFixtures } from '../support/fixtures.js';
import { ROOT } from '../support/services.js';
import { startStack, type Stack } from './support/stack.js';

const KEY = 'e2e-client-key';
let stack: Stack;
let client: VideoApiClient;
let fixtures: string;

beforeAll(async () => {
  fixtures = generateFixtures();
  stack = await startStack({ port: 18987, containerPort: 18988, keys: `${KEY},e2e-client-other` });
  client = new VideoApiClient({ baseUrl: stack.base, apiKey: KEY });
}, 200_000);
afterAll(async () => stack?.stop());

describe('VideoApiClient on the real stack', () => {
  it('should analyze a file from a path, reporting upload and job progress', async () => {
    const uploads: number[] = [];
    const created = await client.analyzeVideo(join(fixtures, 'tone-3s.mp4'), {
      onUploadProgress: (p) => uploads.push(p.loaded / p.total),
    });
    expect(created.video_id).toMatch(/^vid_/);
    expect(uploads.at(-1)).toBe(1);
    const seen: string[] = [];
    const done = await client.waitForCompletion(created.video_id, {
      intervalMs: 300,
      timeoutMs: 120_000,
      onProgress: (s) => seen.push(s.status),
    });
    expect(done.status).toBe('completed');
    expect(done.result?.summary?.duration_sec).toBeGreaterThan(2.5);
    expect(seen.at(-1)).toBe('completed');
  });

  it('should process a registered avatar and download the output to a file', async () => {
    const avatar = await client.registerAvatar(
      new Uint8Array(execFileSync('cat', [join(fixtures, 'tone-3s.mp4')])),
      { filename: 'tone.mp4' },
    );
    expect(avatar).toMatchObject({ registration_status: true });
    expect(avatar.video_id).toMatch(/^avt_/);
    const created = await client.processVideo({ avatarId: avatar.video_id, blurBackground: false });
    await client.waitForCompletion(created.video_id, { intervalMs: 300, timeoutMs: 180_000 });
    const out = join(stack.persist, 'client-out.mp4');
    const file = await client.download(created.video_id, out);
    expect(file.bytes).toBeGreaterThan(1000);
    const probe = JSON.parse(
      execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', out]).toString(),
    );
    expect(Number(probe.format.duration)).toBeGreaterThan(2.5);
  });

  it('should raise typed errors: bad key, bad field, unknown job, failed job', async () => {
    const bad = new VideoApiClient({ baseUrl: stack.base, apiKey: 'nope' });
    await expect(bad.getStatus('vid_x')).rejects.toMatchObject({ code: 'unauthorized', status: 401 });
    const err = await client
      .processVideo({ file: new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112]), voiceGenerator: 2 })
      .catch((e) => e);
    expect(err).toBeInstanceOf(VideoApiError);
    expect(err).toMatchObject({ code: 'invalid_field', field: 'audio', status: 400 });
    expect(err.requestId).toMatch(/\S{8,}/);
    await expect(
      client.waitForCompletion('vid_AAAAAAAAAAAAAAAAAAAAAA', { intervalMs: 100 }),
    ).rejects.toBeInstanceOf(VideoJobError);
    const junk = await client.analyzeVideo(join(fixtures, 'binary-junk.mp4'));
    const failed = await client
      .waitForCompletion(junk.video_id, { intervalMs: 300, timeoutMs: 120_000 })
      .catch((e) => e);
    expect(failed).toBeInstanceOf(VideoJobError);
    expect(failed.status).toBe('failed');
    expect(failed.message.length).toBeGreaterThan(0);
  });
});

describe('video-api CLI on the real stack', () => {
  const cli = (args: string[], env: Record<string, string> = {}) =>
    spawnSync('node', ['src/client/bin.mjs', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, VIDEO_API_URL: stack.base, VIDEO_API_KEY: KEY, ...env },
      timeout: 180_000,
    });

  it('should analyze with --wait and print a readable summary, or JSON with --json', () => {
    const text = cli(['analyze', join(fixtures, 'tone-3s.mp4'), '--wait']);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/duration\s+3\.\d s/);
    expect(text.stderr).toMatch(/upload/);
    const json = cli(['analyze', join(fixtures, 'tone-3s.mp4'), '--wait', '--json']);
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'completed', progress: 100 });
  });

  it('should process with -o and write the video', () => {
    const out = join(stack.persist, 'cli-out.mp4');
    const res = cli(['process', join(fixtures, 'tone-3s.mp4'), '--no-blur', '-o', out]);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe(out);
    expect(
      execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', out])
        .toString()
        .trim(),
    ).toMatch(/^[23]\./);
  });

  it('should exit 2 on usage errors, 3 on API errors, 4 on failed jobs', () => {
    expect(cli(['analyze']).status).toBe(2);
    expect(cli(['status', 'vid_x'], { VIDEO_API_KEY: '' }).status).toBe(2);
    const api = cli(['status', 'vid_x'], { VIDEO_API_KEY: 'wrong' });
    expect(api.status).toBe(3);
    expect(api.stderr).toMatch(/unauthorized \(HTTP 401\).*request_id=/);
    expect(cli(['process', join(fixtures, 'tone-3s.mp4'), '--voice-generator', '2']).status).toBe(3);
    expect(cli(['analyze', join(fixtures, 'binary-junk.mp4'), '--wait']).status).toBe(4);
    expect(cli(['status', 'vid_AAAAAAAAAAAAAAAAAAAAAA']).status).toBe(4);
  });
});
