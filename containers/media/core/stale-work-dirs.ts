/**
 * @module containers/media/core/stale-work-dirs
 * The service's per-request work directories, and a start-up sweep of those a killed service left
 * behind: a request removes its directory when it ends, but SIGKILL, an out-of-memory kill or a
 * crash skip that, and each left a source, frames or an output behind (tens of MB) in the OS temp
 * dir. Only our prefixes, and only directories older than any job may run, so a live job of another
 * service on the same machine is never touched.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** mkdtemp prefixes of the service's work directories, one per kind of request. */
export const WORK_DIR_PREFIX = {
  render: 'render-',
  input: 'media-',
  vision: 'vision-',
  asr: 'asr-fw-',
} as const;

/** Far beyond the longest job (deadlines are hours at most). */
export const STALE_WORK_DIR_MS = 24 * 3600 * 1000;

const OURS = new RegExp(`^(${Object.values(WORK_DIR_PREFIX).join('|')})[A-Za-z0-9]{6}$`);

/**
 * Removes our work directories under `root` last changed more than `staleAfterMs` ago.
 * @returns the names removed.
 * @example await sweepStaleWorkDirs(); // at start-up
 */
export async function sweepStaleWorkDirs(
  root: string = tmpdir(),
  { now = Date.now(), staleAfterMs = STALE_WORK_DIR_MS } = {},
): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(root).catch(() => [] as string[])) {
    if (!OURS.test(name)) continue;
    const path = join(root, name);
    const info = await stat(path).catch(() => null);
    if (!info?.isDirectory() || now - info.mtimeMs <= staleAfterMs) continue;
    await rm(path, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
