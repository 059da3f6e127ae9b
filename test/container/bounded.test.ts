/**
 * Bounded work (issue #12) in the media service: every child runs in a work scope and its own
 * process group; DELETE, the wall-clock budget and inactivity end it (children included); the
 * render believes the content's duration, not a forged header.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeFile, spawnMedia, WorkLimitError } from '../../containers/media/core/ffmpeg.js';
import { abortJob, openScope, runInScope, runningJobs } from '../../containers/media/core/work-scope.js';
import { renderVideo } from '../../containers/media/engines/render/render.js';
import { createMediaApp } from '../../containers/media/server/server.js';
import { forgeMp4Durations } from '../fixtures/abuse/make-corpus.js';
import { testTempDir } from '../support/temp-dir.js';

/** Running, not a zombie waiting for its (new) parent to reap it. */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};
/** A shell that starts a grandchild (`sleep`), prints its pid, and waits. */
const family = () => spawnMedia('sh', ['-c', 'sleep 30 & echo $!; wait']);
const firstLine = (proc: ReturnType<typeof family>) =>
  new Promise<number>((resolve) =>
    proc.child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))),
  );
const waitGone = async (pid: number, ms = 2_000) => {
  const t0 = Date.now();
  while (alive(pid) && Date.now() - t0 < ms) await new Promise((r) => setTimeout(r, 20));
  return !alive(pid);
};

describe('work scope and process wrapper', () => {
  it('should kill a job’s processes and their children when the job is deleted', async () => {
    const scope = openScope({ jobId: 'vid_scopetestscopetest00' });
    const proc = runInScope(scope, family);
    const grandchild = await firstLine(proc);
    expect(runningJobs()).toContain('vid_scopetestscopetest00');
    const t0 = Date.now();
    expect(abortJob('vid_scopetestscopetest00')).toBe(1);
    const err = await proc.done.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkLimitError);
    expect((err as WorkLimitError).message).toBe('the job was deleted');
    expect(await waitGone(grandchild)).toBe(true);
    expect(Date.now() - t0).toBeLessThan(3_000);
    expect(runningJobs()).not.toContain('vid_scopetestscopetest00');
  });

  it('should stop work at its wall-clock budget with a plain message', async () => {
    const scope = openScope({ budgetMs: 300 });
    const proc = runInScope(scope, () => spawnMedia('sleep', ['10']));
    const err = (await proc.done.catch((e: unknown) => e)) as WorkLimitError;
    expect(err.why).toBe('deadline');
    expect(err.message).toMatch(/took longer than its budget/);
  });

  it('should leave every byte of stdout to its consumer (the /audio route waits for the first bytes, then streams)', async () => {
    // 30 s of 16 kHz s16 PCM = 960,000 bytes, far more than a pipe holds: the process cannot end before it is read.
    const proc = spawnMedia('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=d=30',
      '-ac',
      '1',
      '-ar',
      '16000',
      '-f',
      's16le',
      'pipe:1',
    ]);
    proc.child.stdin.end();
    await new Promise((resolve) => proc.child.stdout.once('readable', resolve));
    await new Promise((r) => setTimeout(r, 50));
    let bytes = 0;
    for await (const chunk of proc.child.stdout) bytes += (chunk as Buffer).length;
    await proc.done;
    expect(bytes).toBe(960_000);
  });

  it('should stop a child that shows no sign of life', async () => {
    const proc = spawnMedia('sleep', ['10'], undefined, { idleMs: 300 });
    const err = (await proc.done.catch((e: unknown) => e)) as WorkLimitError;
    expect(err.why).toBe('idle');
    expect(err.message).toBe('sleep stopped making progress for 0 s');
  });

  it('should answer 422 with the plain reason when a limit stopped an engine’s process (never retried)', async () => {
    const pcm = execFileSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=d=20',
      '-ac',
      '1',
      '-ar',
      '16000',
      '-f',
      's16le',
      'pipe:1',
    ]);
    const res = await createMediaApp().request('/asr', {
      method: 'POST',
      body: pcm,
      headers: {
        'content-type': 'audio/L16; rate=16000; channels=1',
        'x-speech-segments': JSON.stringify([{ start: 0, end: 20 }]),
        'x-work-budget-ms': '300',
        'x-job-id': 'vid_budgetbudgetbudget0',
      },
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toEqual({
      code: 'work_limit',
      message: 'the work took longer than its budget of 0 s',
    });
  });

  it('should measure and render the content’s duration when the header is forged (finding 1)', async () => {
    const dir = testTempDir('bounded-');
    const clip = join(dir, 'clip.mp4');
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=s=160x120:r=25:d=3',
      '-f',
      'lavfi',
      '-i',
      'sine=d=3',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      clip,
    ]);
    const forged = join(dir, 'forged.mp4');
    writeFileSync(forged, forgeMp4Durations(readFileSync(clip)).bytes);
    const probe = await probeFile(forged);
    expect(probe.duration_sec).toBeGreaterThan(2.9);
    expect(probe.duration_sec).toBeLessThan(3.2);
    const t0 = Date.now();
    const { report } = await renderVideo({
      sourcePath: forged,
      options: {
        blur_background: false,
        eye_contact_correction: false,
        lip_sync_correction: false,
        lip_sync_correction_model: 'lipsync2',
        captions: null,
      } as never,
      workDir: dir,
    });
    expect(report.output.duration_sec).toBeLessThan(3.2);
    expect(Date.now() - t0).toBeLessThan(30_000);
  });
});
