import { describe, expect, it } from 'vitest';
import * as s from '../../../../src/jobs/state.js';
import { analysisJob, processingJob } from '../../../support/job-records.js';

const init = analysisJob;
const processingInit = processingJob;
const BASE_KEYS = [
  'video_id',
  'tenant',
  'kind',
  'options',
  'source',
  'audio',
  'status',
  'progress',
  'created_at',
  'updated_at',
  'lease',
  'redispatches',
  'last_error',
];
const limits: s.WatchdogLimits = {
  pendingRedispatchMs: 60_000,
  stallMs: 180_000,
  maxRunMs: 3_600_000,
  maxRedispatches: 2,
};

describe('job state machine', () => {
  it('should go pending → processing → completed with progress 100', () => {
    let job = s.createJob(init, 0);
    expect(job.status).toBe('pending');
    job = s.claim(job, 1);
    expect(job).toMatchObject({ status: 'processing', lease: 1, started_at: 1 });
    job = s.advance(job, 40, 'asr', 2);
    job = s.advance(job, 30, 'asr', 3);
    expect(job.progress).toBe(40); // monotonic
    job = s.advance(job, 150, 'x', 4);
    expect(job.progress).toBe(99.9); // 100 only on completion
    const done = s.complete(job, { result_key: 'results/vid_x.json' }, 5);
    expect(done).toMatchObject({ status: 'completed', progress: 100, started_at: 1, finished_at: 5 });
    // Each status has exactly its fields: no stage, heartbeat or error on a completed job.
    expect(Object.keys(done).sort()).toEqual(
      [...BASE_KEYS, 'started_at', 'finished_at', 'result_key'].sort(),
    );
  });

  it('should keep to each status exactly the fields it has', () => {
    const pending = s.createJob(init, 0);
    expect(Object.keys(pending).sort()).toEqual([...BASE_KEYS].sort());
    const running = s.claim(pending, 1);
    expect(Object.keys(running).sort()).toEqual([...BASE_KEYS, 'stage', 'started_at', 'heartbeat_at'].sort());
    const failed = s.fail(running, 'bad input', 2);
    expect(Object.keys(failed).sort()).toEqual(
      [...BASE_KEYS, 'started_at', 'finished_at', 'error_message'].sort(),
    );
    expect(failed.started_at).toBe(1);
    expect(s.fail(pending, 'x', 2).started_at).toBeNull(); // never ran
    const processing = s.claim(s.createJob(processingInit, 0), 1);
    const rendered = s.complete(processing, { output_key: 'outputs/vid_p/out.mp4' }, 2);
    expect(rendered).toMatchObject({
      kind: 'processing',
      output_key: 'outputs/vid_p/out.mp4',
      processing_report: null,
    });
    expect(rendered).not.toHaveProperty('result_key');
  });

  it('should give a job back and re-dispatch it with a new lease, clearing the heartbeat', () => {
    const running = s.claim(s.createJob(init, 0), 1);
    expect(s.giveBack(running, 'unreachable', 5)).toMatchObject({
      status: 'processing',
      heartbeat_at: null,
      last_error: 'unreachable',
      updated_at: 5,
      lease: 1,
    });
    expect(s.redispatch(running, 6)).toMatchObject({
      lease: 2,
      redispatches: 1,
      heartbeat_at: null,
      updated_at: 6,
    });
    const pending = s.redispatch(s.createJob(init, 0), 6);
    expect(pending).toMatchObject({ status: 'pending', lease: 1, redispatches: 1 });
    expect(pending).not.toHaveProperty('heartbeat_at');
    expect(() => s.redispatch(s.fail(running, 'x', 7), 8)).toThrow(s.InvalidTransition);
  });

  it('should refuse transitions out of terminal states', () => {
    const done = s.complete(s.claim(s.createJob(init, 0), 1), { result_key: 'r' }, 2);
    expect(() => s.claim(done, 3)).toThrow(s.InvalidTransition);
    expect(() => s.fail(done, 'x', 3)).toThrow(s.InvalidTransition);
    expect(() => s.advance(done, 1, null, 3)).toThrow(s.InvalidTransition);
  });

  it('should require the pointer that matches the kind', () => {
    const job = s.claim(s.createJob(init, 0), 1);
    expect(() => s.complete(job, { output_key: 'o' }, 2)).toThrow();
  });

  it('should fail with a message and keep error_message only then', () => {
    const failed = s.fail(s.createJob(init, 0), 'bad input', 1);
    expect(failed).toMatchObject({ status: 'failed', error_message: 'bad input' });
  });

  it('should re-dispatch a stalled job, then fail it after the limit', () => {
    let job = s.claim(s.createJob(init, 0), 0);
    expect(s.watchdog(job, 100_000, limits)).toEqual({ action: 'none' });
    expect(s.watchdog(job, 200_000, limits)).toEqual({ action: 'redispatch' });
    job = { ...job, redispatches: 2, last_error: 'container unreachable' };
    const verdict = s.watchdog(job, 200_000, limits);
    expect(verdict.action).toBe('fail');
    expect((verdict as { message: string }).message).toMatch(/stopped responding.*container unreachable/);
  });

  it('should re-dispatch a pending job nobody picked up and fail an overlong run', () => {
    const pending = s.createJob(init, 0);
    expect(s.watchdog(pending, 61_000, limits)).toEqual({ action: 'redispatch' });
    const running = { ...s.claim(pending, 0), heartbeat_at: 3_600_500 };
    expect(s.watchdog(running, 3_600_600, limits).action).toBe('fail');
  });
});

describe('long-poll', () => {
  const seen: s.VisibleState = { status: 'processing', progress: 10 };
  it('should answer a new status, an ended job or a gone record at once', () => {
    expect(s.longPollRemainingMs(seen, { status: 'completed', progress: 100 }, 0, 25_000)).toBe(0);
    expect(s.longPollRemainingMs(seen, { status: 'failed', progress: 10 }, 0, 25_000)).toBe(0);
    expect(s.longPollRemainingMs({ status: 'pending', progress: 0 }, seen, 0, 25_000)).toBe(0);
    expect(s.longPollRemainingMs(seen, null, 0, 25_000)).toBe(0);
  });

  it('should hold a progress change until a second has passed, and nothing beyond the wait', () => {
    const moved = { status: 'processing' as const, progress: 20 };
    expect(s.longPollRemainingMs(seen, moved, 300, 25_000)).toBe(s.PROGRESS_ANSWER_MIN_MS - 300);
    expect(s.longPollRemainingMs(seen, moved, 1_500, 25_000)).toBe(0);
    expect(s.longPollRemainingMs(seen, moved, 100, 500)).toBe(400);
    expect(s.longPollRemainingMs(seen, seen, 1_500, 25_000)).toBe(23_500);
    expect(s.longPollRemainingMs(seen, seen, 25_000, 25_000)).toBe(0);
  });
});
