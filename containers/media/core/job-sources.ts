/**
 * @module containers/media/core/job-sources
 * A job's source file, kept between the job's requests: the Worker sends it once
 * (`PUT /jobs/{id}/source`) and the job's later requests name it (`x-stored-source: 1`) instead of
 * sending the whole file again. Each is one file in this service's own directory,
 * `<root>/<job id>/<tenant digest>`: bound to the job and to the tenant that sent it, so another
 * tenant naming the job finds nothing. Removed when the job ends (`DELETE /jobs/{id}`), when
 * unused for `MEDIA_SOURCE_TTL_SEC` (the Worker never said), and with the service: a new service
 * starts a new directory and removes those whose service is gone (`sweepOrphanSourceRoots`).
 */
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SOURCE_MISSING } from '../../../src/contract/media-protocol.js';
import { MediaError } from './errors.js';
import { removeStaleDirs, WORK_DIR_PREFIX } from './stale-work-dirs.js';

/** A job id this service keeps a file for: one path segment, no dots (no `..`), no separators. */
const JOB_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** The file in a root naming the id of the process that owns it. */
const OWNER_FILE = 'owner.pid';

/** @throws MediaError 400 when `jobId` is not one path segment of the expected shape. */
export function checkJobId(jobId: string | null | undefined): string {
  if (jobId && JOB_ID.test(jobId)) return jobId;
  throw new MediaError('invalid_job_id', 'the job id must be 1–128 letters, digits, _ or -', 400);
}

/** Pure: the file name of `tenant`'s copy (a digest: any tenant string is one safe name). */
export const tenantFileName = (tenant: string | null): string =>
  createHash('sha256')
    .update(tenant ?? '')
    .digest('hex')
    .slice(0, 32);

let root: Promise<string> | null = null;
/** This service's directory of job sources, made on first use with its owner's process id. */
export function sourcesRoot(): Promise<string> {
  root ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), WORK_DIR_PREFIX.sources));
    await writeFile(join(dir, OWNER_FILE), String(process.pid));
    return dir;
  })();
  return root;
}

/** The service stops: the sources it kept go with it. */
export async function removeSourcesRoot(): Promise<void> {
  if (root) await rm(await root, { recursive: true, force: true });
}

const jobDir = async (jobId: string) => join(await sourcesRoot(), checkJobId(jobId));

/** Stored sources being read by a request, by path: the idle sweep leaves them. */
const inUse = new Map<string, number>();

/** Counts the bytes through it; past `maxBytes`, fails with 413. */
function byteCap(maxBytes: number, counted: (n: number) => void): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      counted(bytes);
      if (bytes > maxBytes)
        done(new MediaError('payload_too_large', `the source is larger than ${maxBytes} bytes`, 413));
      else done(null, chunk);
    },
  });
}

/**
 * Streams `body` to disk as `jobId`'s source for `tenant` (a source sent again replaces it). At
 * most `maxBytes` (413 beyond); an empty body is a 400.
 */
export async function storeJobSource({
  jobId,
  tenant,
  body,
  maxBytes = Infinity,
}: {
  jobId: string;
  tenant: string | null;
  body: ReadableStream<Uint8Array> | null;
  maxBytes?: number;
}): Promise<{ bytes: number }> {
  const dir = await jobDir(jobId);
  await mkdir(dir, { recursive: true });
  // Said again: a sweep of another service may have taken the directory for a gone one's.
  await writeFile(join(dir, '..', OWNER_FILE), String(process.pid));
  const file = join(dir, tenantFileName(tenant));
  // Written aside, then renamed: a reader never sees half a file, and two uploads never mix.
  const part = `${file}.part-${randomUUID()}`;
  let bytes = 0;
  try {
    const source = body ? Readable.fromWeb(body as never) : Readable.from([]);
    await pipeline(
      source,
      byteCap(maxBytes, (n) => (bytes = n)),
      createWriteStream(part),
    );
    if (bytes === 0) throw new MediaError('empty_input', 'the file is empty', 400);
    await rename(part, file);
  } catch (err) {
    await rm(part, { force: true });
    throw err;
  }
  return { bytes };
}

/** A stored source a request reads; disposing it ends the use (the file stays for the job). */
export interface StoredSource extends AsyncDisposable {
  path: string;
  bytes: number;
}

/** @throws MediaError 404 `SOURCE_MISSING` when `jobId` has no stored source of `tenant` here. */
export async function useJobSource(jobId: string, tenant: string | null): Promise<StoredSource> {
  const dir = await jobDir(jobId);
  const path = join(dir, tenantFileName(tenant));
  inUse.set(path, (inUse.get(path) ?? 0) + 1);
  const release = () => {
    const left = (inUse.get(path) ?? 1) - 1;
    if (left > 0) inUse.set(path, left);
    else inUse.delete(path);
  };
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) {
    release();
    throw new MediaError(SOURCE_MISSING, 'this job has no stored source here: send it again', 404);
  }
  // Its last use: the idle sweep counts from here.
  const now = new Date();
  await utimes(dir, now, now).catch(() => {});
  let released = false;
  return {
    path,
    bytes: info.size,
    [Symbol.asyncDispose]: async () => {
      if (!released) release();
      released = true;
    },
  };
}

/** Removes every stored source of `jobId` (the job ended). An id of another shape has none. */
export async function removeJobSources(jobId: string): Promise<void> {
  if (!JOB_ID.test(jobId)) return;
  await rm(await jobDir(jobId), { recursive: true, force: true });
}

/**
 * Removes the stored sources of jobs unused for `ttlMs` (none of their files being read).
 * @returns the job ids removed.
 */
export async function sweepIdleJobSources(ttlMs: number, now = Date.now()): Promise<string[]> {
  return removeStaleDirs(await sourcesRoot(), (name) => JOB_ID.test(name), {
    now,
    staleAfterMs: ttlMs,
    keep: (dir) => [...inUse.keys()].some((path) => path.startsWith(`${dir}/`)),
  });
}

/** Sweeps idle sources every minute at most (sooner for a short TTL), without keeping the process up. */
export function startIdleSourceSweeps(ttlMs: number): void {
  const every = Math.max(1_000, Math.min(60_000, ttlMs / 2));
  setInterval(() => void sweepIdleJobSources(ttlMs).catch(() => {}), every).unref();
}

const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, owned by another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * At start: removes the job-source directories of services that are gone (a restart, a kill).
 * A directory whose owner is this process's id is a previous life of this service (a container's
 * entry has the same id each start). Directories of services still running are left alone.
 * @returns the names removed.
 */
export async function sweepOrphanSourceRoots(
  base: string = tmpdir(),
  alive: (pid: number) => boolean = processAlive,
): Promise<string[]> {
  // Made first, so it is known and left alone.
  const own = await sourcesRoot();
  const removed: string[] = [];
  const ours = new RegExp(`^${WORK_DIR_PREFIX.sources}[A-Za-z0-9]{6}$`);
  for (const name of await readdir(base).catch(() => [] as string[])) {
    const dir = join(base, name);
    if (!ours.test(name) || dir === own) continue;
    const pid = Number(await readFile(join(dir, OWNER_FILE), 'utf8').catch(() => ''));
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) continue;
    await rm(dir, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
