/**
 * The vision threads' lower priority: the setting, and that only the calling thread is niced.
 */
import { readlinkSync } from 'node:fs';
import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  DEFAULT_VISION_NICE,
  defaultVisionNice,
} from '../../../../../../containers/media/engines/vision/priority.js';

describe('defaultVisionNice', () => {
  it('should take an integer 0–19 from VISION_NICE and fall back otherwise', () => {
    expect(defaultVisionNice({ VISION_NICE: '0' })).toBe(0);
    expect(defaultVisionNice({ VISION_NICE: '15' })).toBe(15);
    for (const bad of [undefined, '', '-5', '20', '3.5', 'low'])
      expect(defaultVisionNice({ VISION_NICE: bad })).toBe(DEFAULT_VISION_NICE);
  });
});

describe.skipIf(process.platform !== 'linux')('niceThisThread', () => {
  it('should lower the priority of the calling thread only', async () => {
    let worker: Worker | undefined;
    const tid = await new Promise<number>((resolve, reject) => {
      worker = new Worker(new URL('./nice-thread.worker.ts', import.meta.url), {
        execArgv: ['--import', 'tsx'],
      });
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    onTestFinished(() => void worker?.terminate()); // the thread must live while its priority is read
    expect(tid).toBeGreaterThan(0);
    expect(getPriority(tid)).toBe(7);
    const mainTid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    expect(getPriority(mainTid)).toBe(getPriority(process.pid));
    expect(getPriority(process.pid)).not.toBe(7);
  });
});
