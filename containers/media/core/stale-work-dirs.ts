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
  /** The jobs' stored sources (job-sources.ts): one per service, swept sooner on its own rules. */
  sources: 'media-sources-',
} as const;

/** Far beyond the longest job (deadlines are hours at most). */
export const STALE_WORK_DIR_MS = 24 * 3600 * 1000;

const OURS = new RegExp(`^(${Object.values(WORK_DIR_PREFIX).join('|')})[A-Za-z0-9]{6}$`);

/**
 * Removes our work directories under `root` last changed more than `staleAfterMs` ago.
 * @returns the names removed.
 * @example await sweepStaleWorkDirs(); // at start-up
 */
export const sweepStaleWorkDirs = (
  root: string = tmpdir(),
  { now = Date.now(), staleAfterMs = STALE_WORK_DIR_MS } = {},
): Promise<string[]> => removeStaleDirs(root, (name) => OURS.test(name), { now, staleAfterMs });

/**
 * Removes the directories under `root` whose name `matches`, last changed more than `staleAfterMs`
 * before `now`, unless `keep` holds on to one (its path).
 * @returns the names removed.
 */
export async function removeStaleDirs(
  root: string,
  matches: (name: string) => boolean,
  {
    now,
    staleAfterMs,
    keep = () => false,
  }: { now: number; staleAfterMs: number; keep?: (path: string) => boolean },
): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(root).catch(() => [] as string[])) {
    if (!matches(name)) continue;
    const path = join(root, name);
    const info = await stat(path).catch(() => null);
    if (!info?.isDirectory() || now - info.mtimeMs <= staleAfterMs || keep(path)) continue;
    await rm(path, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
