/**
 * The vision threads' lower priority: the setting, and that only the calling thread is niced.
 */
import { readlinkSync } from 'node:fs';
import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it, onTestFinished } from 'vitest';
import { configFrom } from '../../../../../../containers/media/core/config.js';

describe('VISION_NICE', () => {
  it('should take a whole number 0–19, 10 when unset, and refuse anything else', () => {
    expect(configFrom({ VISION_NICE: '0' }).vision.nice).toBe(0);
    expect(configFrom({ VISION_NICE: '15' }).vision.nice).toBe(15);
    expect(configFrom({ VISION_NICE: '' }).vision.nice).toBe(10);
    expect(configFrom({}).vision.nice).toBe(10);
    for (const bad of ['-5', '20', '3.5', 'low'])
      expect(() => configFrom({ VISION_NICE: bad })).toThrow(/VISION_NICE/);
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
