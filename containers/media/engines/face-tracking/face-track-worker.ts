/**
 * @module containers/media/engines/face-tracking/face-track-worker
 * A `FaceTracker` whose face mesh runs on its own worker thread (one Human instance there), so
 * the render's main thread keeps decoding and editing while a keyframe is meshed: `detect` posts
 * the frame and returns at once with a promise; several may be in flight and are answered in
 * order. One thread per tracker, started once and terminated by `dispose` (the render's end,
 * DELETE, deadline): it never outlives its job. Like the job's child processes, the thread runs
 * at the job's nice value (long work: 19), so short jobs of other keys get the CPU first.
 */
import { Worker } from 'node:worker_threads';
import { mediaConfig } from '../../core/config.js';
import { currentNice, currentScope } from '../../core/work-scope.js';
import { threadEntry } from '../../core/thread-entry.js';
import type { FaceThreadReply, FaceThreadRequest } from './face-track-thread.js';
import { createFaceTracker, type FaceMesh, type FaceTracker, type FaceTrackerOptions } from './face-track.js';
import { createNativeFaceTracker } from './face-track-native.js';

/** Model load + warm-up beyond this means something is wrong: fail the render, do not hang it. */
const THREAD_READY_TIMEOUT_MS = 120_000;

/** @example using t = await createFaceTrackerThread({ iris: true }); const f = await t.detect(rgb, w, h); */
export async function createFaceTrackerThread({
  iris = true,
}: FaceTrackerOptions = {}): Promise<FaceTracker> {
  const { url, execArgv } = threadEntry(import.meta.url, 'face-track-thread');
  const worker = new Worker(url, { execArgv, workerData: { nice: currentNice(currentScope()) } });
  const pending = new Map<number, { resolve: (f: FaceMesh | null) => void; reject: (e: Error) => void }>();
  let dead: Error | null = null;
  let nextId = 0;
  const fail = (err: Error) => {
    if (dead) return;
    dead = err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('face-mesh thread did not start in time')),
      THREAD_READY_TIMEOUT_MS,
    );
    worker.on('message', (msg: FaceThreadReply) => {
      if (msg.type === 'ready') return void (clearTimeout(timer), resolve());
      if (msg.type === 'fatal') return void (clearTimeout(timer), reject(new Error(msg.message)));
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if (msg.type === 'result') p.resolve(msg.face);
      else p.reject(new Error(`face mesh: ${msg.message}`));
    });
    worker.on('error', (err: Error) => (clearTimeout(timer), fail(err), reject(err)));
    worker.on('exit', (code) => {
      clearTimeout(timer);
      const err = new Error(`face-mesh thread exited (code ${code})`);
      fail(err);
      reject(err);
    });
  });
  const dispose = () => {
    fail(new Error('face tracker is disposed'));
    void worker.terminate();
  };
  try {
    await ready;
  } catch (err) {
    dispose();
    throw err;
  }
  return {
    pipelined: true,
    detect(rgb, width, height) {
      if (dead) return Promise.reject(dead);
      const id = nextId++;
      return new Promise<FaceMesh | null>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        const msg: FaceThreadRequest = { id, rgb, width, height, iris };
        worker.postMessage(msg, [rgb.buffer as ArrayBuffer]);
      });
    },
    dispose,
    [Symbol.dispose]: dispose,
  };
}

/**
 * The processing engines' tracker: MediaPipe's native face mesh when the environment has it
 * (`NATIVE_VISION=0` turns it off); else Human, on its own thread when `FACE_MESH_THREAD=1`, or
 * in two lanes (`lanes: 2`, for a pass whose own thread is otherwise idle).
 */
export async function createProcessingFaceTracker(
  options: FaceTrackerOptions & { lanes?: 1 | 2; signal?: AbortSignal } = {},
): Promise<FaceTracker> {
  const { lanes = 1, signal, ...human } = options;
  const native = createNativeFaceTracker(signal, human.iris ?? true);
  if (native) return native;
  if (lanes === 2) return createTwoLaneFaceTracker(human);
  // FACE_MESH_THREAD=1 (opt-in: the same wall of the every-option gate for more CPU, docs/configuration.md).
  return mediaConfig().render.faceMeshThread ? createFaceTrackerThread(human) : createFaceTracker(human);
}

/**
 * Two lanes, this thread's Human and a face-mesh thread, for a pass whose own thread is
 * otherwise idle (the mouth analysis only decodes, thumbnails and cuts): on 2 cores the meshes
 * go about twice as fast. Each request goes to the lane with fewer in flight; this thread's lane
 * takes one at a time. The thread joins once its models are loaded; until then, or if it
 * cannot start, this thread meshes alone. Dispose ends the thread (render end, DELETE, deadline).
 */
export async function createTwoLaneFaceTracker(options: FaceTrackerOptions = {}): Promise<FaceTracker> {
  const local = await createFaceTracker(options);
  let thread: FaceTracker | null = null;
  let disposed = false;
  void createFaceTrackerThread(options).then(
    (t) => (disposed ? t.dispose() : (thread = t)),
    () => {}, // this thread's lane carries on alone
  );
  let localTail: Promise<unknown> = Promise.resolve();
  const busy = { local: 0, thread: 0 };
  const track = <T>(lane: keyof typeof busy, p: Promise<T>) => {
    busy[lane]++;
    p.then(
      () => busy[lane]--,
      () => busy[lane]--,
    );
    return p;
  };
  const dispose = () => {
    disposed = true;
    local.dispose();
    thread?.dispose();
  };
  return {
    pipelined: true,
    detect(rgb, width, height) {
      if (thread && busy.thread <= busy.local) return track('thread', thread.detect(rgb, width, height));
      const p = localTail.then(() => local.detect(rgb, width, height));
      localTail = p.catch(() => {});
      return track('local', p);
    },
    dispose,
    [Symbol.dispose]: dispose,
  };
}
