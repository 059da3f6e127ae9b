/**
 * @module containers/media/engines/vision/pool
 * A pool of worker threads, one Human instance each, so inference uses every core. Frames are
 * dealt round-robin; each call resolves with that frame's observation, and the caller restores
 * time order. The process-wide pool (`sharedVisionPool`) loads models once and is reused by
 * every job.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FrameObservation } from '../../../../src/contract/media.js';
import type { ModelTimings, RgbFrame } from './engines.js';
import type { HumanConfigOptions } from './human/config.js';
import type { WorkerReply, WorkerRequest } from './protocol.js';
import { mediaConfig, type VisionConfig } from '../../core/config.js';
import { threadEntry } from '../../core/thread-entry.js';

/** How long a worker may take to load its models before the pool gives up. */
const WORKER_READY_TIMEOUT_MS = 120_000;

export interface VisionPoolOptions {
  /** Worker threads. Default: `VISION_THREADS`, else the number of cores. */
  threads?: number;
  engine?: HumanConfigOptions;
}

export interface FrameResult {
  observation: FrameObservation;
  timings: ModelTimings;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  pending: Map<number, { resolve: (r: FrameResult) => void; reject: (e: Error) => void }>;
  dead: Error | null;
}

/** Pure: the pool's threads, `VISION_THREADS` or else one per core. */
export function defaultThreadCount(
  vision: Pick<VisionConfig, 'threads'> = mediaConfig().vision,
  cores: number = availableParallelism(),
): number {
  return vision.threads ?? Math.max(1, cores);
}

export class VisionPool implements Disposable {
  readonly threads: number;
  private readonly slots: Slot[];
  private nextSlot = 0;
  private nextId = 0;
  private disposed = false;
  private unrefWhenIdle = false;

  constructor(options: VisionPoolOptions = {}) {
    const { threads = defaultThreadCount(), engine = {} } = options;
    this.threads = threads;
    const { url, execArgv } = threadEntry(import.meta.url, 'worker');
    this.slots = Array.from({ length: threads }, () => this.startWorker(url, execArgv, engine));
  }

  private startWorker(url: URL, execArgv: string[], engine: HumanConfigOptions): Slot {
    const worker = new Worker(url, { workerData: engine, execArgv });
    const slot: Slot = { worker, ready: Promise.resolve(), pending: new Map(), dead: null };
    const fail = (err: Error) => {
      if (slot.dead) return;
      slot.dead = err;
      for (const p of slot.pending.values()) p.reject(err);
      slot.pending.clear();
    };
    slot.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('vision worker did not load its models in time')),
        WORKER_READY_TIMEOUT_MS,
      );
      worker.on('message', (msg: WorkerReply) => {
        if (msg.type === 'ready') {
          clearTimeout(timer);
          resolve();
        } else if (msg.type === 'fatal') {
          clearTimeout(timer);
          const err = new Error(`vision worker failed to start: ${msg.message}`);
          fail(err);
          reject(err);
        } else {
          const p = slot.pending.get(msg.id);
          if (!p) return;
          slot.pending.delete(msg.id);
          if (msg.type === 'result') p.resolve({ observation: msg.observation, timings: msg.timings });
          else p.reject(new Error(`vision worker: ${msg.message}`));
        }
      });
      worker.on('error', (err) => {
        clearTimeout(timer);
        fail(err as Error);
        reject(err);
      });
      worker.on('exit', (code) => {
        clearTimeout(timer);
        const err = new Error(`vision worker exited (code ${code})`);
        fail(err);
        reject(err);
      });
    });
    slot.ready.catch(() => {}); // surfaced through observe()
    return slot;
  }

  /** Resolves once every worker has its models loaded. */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.ready));
  }

  /** True when a worker died; the shared pool is then replaced for the next job. */
  get broken(): boolean {
    return this.disposed || this.slots.some((s) => s.dead !== null);
  }

  /**
   * Sends one frame to the next worker (round-robin). The frame's pixel buffer is transferred,
   * not copied: the caller must not use `frame.data` afterwards.
   */
  async observe(frame: RgbFrame): Promise<FrameResult> {
    if (this.disposed) throw new Error('vision pool is disposed');
    const slot = this.slots[this.nextSlot];
    this.nextSlot = (this.nextSlot + 1) % this.slots.length;
    await slot.ready;
    if (slot.dead) throw slot.dead;
    const id = this.nextId++;
    return new Promise<FrameResult>((resolve, reject) => {
      const settle = () => {
        if (this.unrefWhenIdle && slot.pending.size === 0) slot.worker.unref();
      };
      slot.worker.ref();
      slot.pending.set(id, {
        resolve: (r) => (resolve(r), settle()),
        reject: (e) => (reject(e), settle()),
      });
      const msg: WorkerRequest = { type: 'frame', id, frame };
      slot.worker.postMessage(msg, [frame.data.buffer as ArrayBuffer]);
    });
  }

  /**
   * Lets the process exit while the workers idle. A worker with frames in flight is ref'd
   * again, or a script awaiting its last results would exit under it.
   */
  unref(): void {
    this.unrefWhenIdle = true;
    for (const slot of this.slots) if (slot.pending.size === 0) slot.worker.unref();
  }

  /** Stops every worker (their wasm heaps and models go with them). Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const slot of this.slots) {
      slot.worker.postMessage({ type: 'close' } satisfies WorkerRequest);
      void slot.worker.terminate();
    }
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}

let shared: VisionPool | null = null;

/** The process-wide pool, created on first use and replaced if a worker died. */
export function sharedVisionPool(options: VisionPoolOptions = {}): VisionPool {
  if (!shared || shared.broken) {
    shared?.dispose();
    shared = new VisionPool(options);
    // Idle workers must not keep a CLI or test process alive.
    shared.unref();
  }
  return shared;
}

/** Stops the shared pool (tests, shutdown). */
export function disposeSharedVisionPool(): void {
  shared?.dispose();
  shared = null;
}

/**
 * Starts the shared pool now and resolves once its models are loaded; a failure is left for the
 * first request. The service calls it at its start unless `VISION_PRELOAD=0`: a worker's start
 * (tsx, tfjs-wasm, models, warm-up frames) costs ≈ 3.5 CPU-s, which the first visual job would
 * otherwise pay on its longer lane (docs/benchmarks.md "Visual analytics speed").
 */
export async function preloadVision(): Promise<boolean> {
  try {
    await sharedVisionPool().ready();
    return true;
  } catch {
    return false;
  }
}
