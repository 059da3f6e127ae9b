/**
 * CPU per service process role (bench/support/service-cpu): /proc stat fields and the window sums.
 */
import { describe, expect, it } from 'vitest';
import { cpuSecondsByRole, statCpuTicks } from '../../../../bench/support/service-cpu.js';
import { processRole } from '../../../../bench/support/service-procs.js';

describe('statCpuTicks', () => {
  it('should read utime and stime even when the command name holds spaces and brackets', () => {
    const stat = '4242 (node (vision) x) S 1 4242 4242 0 -1 4194304 100 0 0 0 250 30 7 9 20 0 1 0 64907';
    expect(statCpuTicks(stat)).toBe(280);
  });
});

describe('cpuSecondsByRole', () => {
  it('should count running processes from their baseline and new ones from zero', () => {
    const baseline = [{ pid: '1', role: 'workerd', ticks: 1000 }];
    const latest = [
      { pid: '1', role: 'workerd', ticks: 1150 },
      { pid: '7', role: 'ffmpeg', ticks: 300 },
      { pid: '8', role: 'ffmpeg', ticks: 200 },
    ];
    expect(Object.fromEntries(cpuSecondsByRole(baseline, latest))).toEqual({ workerd: 1.5, ffmpeg: 5 });
  });
});

describe('processRole', () => {
  it('should tell the service processes apart by command line', () => {
    expect(processRole('/usr/bin/ffmpeg\0-v\0error\0-i\0x.mp4')).toBe('ffmpeg');
    expect(processRole('ffmpeg\0-i\0x.mp4')).toBe('ffmpeg');
    expect(processRole('/x/node_modules/@cloudflare/workerd-linux-64/bin/workerd\0serve')).toBe('workerd');
    expect(processRole('node\0--import\0tsx\0containers/media/server/main.ts')).toBe('media service (node)');
    expect(processRole('/x/node\0--no-warnings\0/x/node_modules/wrangler/wrangler-dist/cli.js\0dev')).toBe(
      'wrangler (node)',
    );
    expect(
      processRole('/x/node\0--import\0tsx\0/x/containers/media/engines/segment/segmenter-process.ts\0selfie'),
    ).toBe('segmenter');
    expect(processRole('/work/main/.venv/bin/python\0-m\0engines.eye')).toBe('python engine');
    expect(processRole('/app/.venv/bin/python\0-u\0/app/containers/media/python/align_worker.py')).toBe(
      'forced alignment',
    );
  });
});
