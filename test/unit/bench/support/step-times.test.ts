/**
 * The gates bench's stage table (bench/support/step-times): the Worker's step lines of one job
 * out of the service log, and the wall time split into upload, steps and the rest.
 */
import { describe, expect, it } from 'vitest';
import { parseStepTimes, stageRows } from '../../../../bench/support/step-times.js';

const LOG = [
  '[video-api] {"level":"info","video_id":"vid_A","step":"probe","ms":227}',
  '[video-api] {"level":"info","video_id":"vid_B","step":"probe","ms":999}',
  '[video-api] {"level":"info","video_id":"vid_A","step":"audio","in":"speech+vision","ms":600}',
  '[video-api] {"level":"info","video_id":"vid_A","step":"asr","in":"speech+vision","ms":9000}',
  '[video-api] {"level":"error","video_id":"vid_A","message":"retrying"}',
  '[video-api] vid_A is not json',
  '[video-api] {"level":"info","video_id":"vid_A","step":"speech+vision","ms":9800}',
  '[video-api] {"level":"info","video_id":"vid_A","step":"result","ms":100}',
].join('\n');

describe('parseStepTimes', () => {
  it('should keep only the step lines of the job asked for, in order', () => {
    expect(parseStepTimes(LOG, 'vid_A')).toEqual([
      { step: 'probe', ms: 227 },
      { step: 'audio', in: 'speech+vision', ms: 600 },
      { step: 'asr', in: 'speech+vision', ms: 9000 },
      { step: 'speech+vision', ms: 9800 },
      { step: 'result', ms: 100 },
    ]);
    expect(parseStepTimes(LOG, 'vid_C')).toEqual([]);
  });
});

describe('stageRows', () => {
  it('should list top-level steps with their concurrent members under them and put the rest of the wall in one row', () => {
    const rows = stageRows(parseStepTimes(LOG, 'vid_A'), 0.5, 12);
    expect(rows.map((r) => r.stage)).toEqual([
      'upload (client → Worker → R2)',
      'probe',
      'speech+vision (concurrent)',
      '  ∥ audio',
      '  ∥ asr',
      'result',
      'queue + dispatch + polling (wall − upload − steps)',
    ]);
    // 12 − 0.5 − (0.227 + 9.8 + 0.1): members are not counted twice.
    expect(rows.at(-1)!.sec).toBeCloseTo(1.373, 6);
    expect(rows[0].share).toBeCloseTo(0.5 / 12, 6);
  });

  it('should show a concurrent group inside another one level deeper, counted once', () => {
    const log = [
      '{"level":"info","video_id":"vid_A","step":"audio","in":"speech+vision","ms":300}',
      '{"level":"info","video_id":"vid_A","step":"prosody","in":"asr+prosody","ms":400}',
      '{"level":"info","video_id":"vid_A","step":"asr","in":"asr+prosody","ms":7000}',
      '{"level":"info","video_id":"vid_A","step":"asr+prosody","in":"speech+vision","ms":7000}',
      '{"level":"info","video_id":"vid_A","step":"speech+vision","ms":7400}',
    ].join('\n');
    const rows = stageRows(parseStepTimes(log, 'vid_A'), 0.1, 8);
    expect(rows.map((r) => r.stage)).toEqual([
      'upload (client → Worker → R2)',
      'speech+vision (concurrent)',
      '  ∥ audio',
      '  ∥ asr+prosody (concurrent)',
      '    ∥ prosody',
      '    ∥ asr',
      'queue + dispatch + polling (wall − upload − steps)',
    ]);
    expect(rows.at(-1)!.sec).toBeCloseTo(0.5, 6);
  });

  it("should show the container's parts of a step under it, not counted in the steps", () => {
    const log = [
      '{"level":"info","video_id":"vid_A","step":"receive","within":"render","ms":400}',
      '{"level":"info","video_id":"vid_A","step":"encode","within":"render","ms":9000}',
      '{"level":"info","video_id":"vid_A","step":"render","ms":10000}',
    ].join('\n');
    const rows = stageRows(parseStepTimes(log, 'vid_A'), 0.5, 11);
    expect(rows.map((r) => [r.stage, r.sec])).toEqual([
      ['upload (client → Worker → R2)', 0.5],
      ['render', 10],
      ['  · receive', 0.4],
      ['  · encode', 9],
      ['queue + dispatch + polling (wall − upload − steps)', 0.5],
    ]);
  });

  it('should say that the rest of a failed job holds the step that failed', () => {
    expect(stageRows([{ step: 'probe', ms: 500 }], 0.5, 600, false).at(-1)).toEqual({
      stage: 'the failed step (logs no time) + queue + dispatch + polling (wall − upload − steps)',
      sec: 599,
      share: 599 / 600,
    });
  });

  it('should never report a negative rest when the steps outlast the client clock', () => {
    expect(stageRows([{ step: 'render', ms: 20_000 }], 1, 10).at(-1)!.sec).toBe(0);
  });
});
