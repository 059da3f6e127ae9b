import { describe, expect, it } from 'vitest';
import {
  answerInOrder,
  profilingFlags,
  threadEntry,
  type InOrderReply,
} from '../../../../../containers/media/core/thread-entry.js';

describe('profilingFlags', () => {
  it('keeps the CPU and heap profiling flags of the parent, nothing else', () => {
    expect(
      profilingFlags([
        '--require',
        '/x/preflight.cjs',
        '--import',
        'file:///x/loader.mjs',
        '--cpu-prof',
        '--cpu-prof-dir=/tmp/prof',
        '--cpu-prof-interval=2000',
        '--heap-prof',
        '--max-old-space-size=4096',
        '--cpu-profx',
      ]),
    ).toEqual(['--cpu-prof', '--cpu-prof-dir=/tmp/prof', '--cpu-prof-interval=2000', '--heap-prof']);
  });
  it('is empty when the parent is not profiled', () => {
    expect(profilingFlags(['--import', 'tsx'])).toEqual([]);
  });
});

describe('threadEntry', () => {
  it("names the sibling entry in the owner's own language, with the tsx loader for .ts", () => {
    const ts = threadEntry('file:///x/engines/face-tracking/face-track-worker.ts', 'face-track-thread');
    expect(ts.url.href).toBe('file:///x/engines/face-tracking/face-track-thread.ts');
    expect(ts.execArgv.slice(-2)).toEqual(['--import', 'tsx']);
    const js = threadEntry('file:///x/engines/vision/pool.js', 'worker');
    expect(js.url.href).toBe('file:///x/engines/vision/worker.js');
    expect(js.execArgv).not.toContain('tsx');
  });
});

describe('answerInOrder', () => {
  it('should post each answer in request order, a failure as an error, and settle after the last', async () => {
    const posted: InOrderReply<{ n: number }>[] = [];
    const answers = answerInOrder<{ n: number }>((r) => posted.push(r));
    const later = (n: number, ms: number) => () =>
      new Promise<{ n: number }>((r) => setTimeout(() => r({ n }), ms));
    answers.answer(1, later(1, 30));
    answers.answer(2, () => Promise.reject(new Error('no face')));
    answers.answer(3, later(3, 1));
    await answers.settled();
    expect(posted).toEqual([
      { type: 'result', id: 1, n: 1 },
      { type: 'error', id: 2, message: 'no face' },
      { type: 'result', id: 3, n: 3 },
    ]);
  });
});
