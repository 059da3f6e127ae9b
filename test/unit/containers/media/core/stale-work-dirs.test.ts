import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  STALE_WORK_DIR_MS,
  sweepStaleWorkDirs,
} from '../../../../../containers/media/core/stale-work-dirs.js';
import { testTempDir } from '../../../../support/temp-dir.js';

describe('sweepStaleWorkDirs', () => {
  it('should remove only our work directories older than any job, with their files', async () => {
    const root = testTempDir('sweep-');
    const now = Date.now();
    const make = (name: string, ageMs: number, file = true) => {
      const dir = join(root, name);
      mkdirSync(dir);
      if (file) writeFileSync(join(dir, 'source.mp4'), 'x');
      const t = (now - ageMs) / 1000;
      utimesSync(dir, t, t);
      return dir;
    };
    const day = STALE_WORK_DIR_MS;
    const old = [
      make('render-aB3dE9', 2 * day),
      make('media-Zz0000', day + 60_000),
      make('asr-fw-q1w2e3', 3 * day),
    ];
    const live = make('vision-Live01', day - 60_000); // a job of another service, still within a day
    const foreign = [
      make('render-toolongname', 2 * day),
      make('other-aB3dE9', 2 * day),
      make('render-', 2 * day, false),
    ];
    writeFileSync(join(root, 'media-file00'), 'not a directory');
    utimesSync(join(root, 'media-file00'), (now - 2 * day) / 1000, (now - 2 * day) / 1000);

    const removed = await sweepStaleWorkDirs(root, { now });
    expect(removed.sort()).toEqual(['asr-fw-q1w2e3', 'media-Zz0000', 'render-aB3dE9']);
    for (const dir of old) expect(existsSync(dir)).toBe(false);
    for (const dir of [live, ...foreign, join(root, 'media-file00')]) expect(existsSync(dir)).toBe(true);
  });

  it('should do nothing when the root does not exist', async () => {
    expect(await sweepStaleWorkDirs('/nonexistent/for/sure')).toEqual([]);
  });
});
