/**
 * @module containers/media/engines/vision/worker
 * Worker-thread entry: owns one Human instance (its own wasm heap and models) and answers
 * frame requests one at a time. Started by `VisionPool`; never imported by other modules.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { HumanConfigOptions } from './human/config.js';
import { createHumanEngine } from './human/engine.js';
import { niceThisThread } from './priority.js';
import type { WorkerReply, WorkerRequest } from './protocol.js';
import { mediaConfig } from '../../core/config.js';
import { answerInOrder } from '../../core/thread-entry.js';

/** Size of the blank warm-up frame: the default sampling width at 16:9. */
const WARMUP_WIDTH_PX = 640;
const WARMUP_HEIGHT_PX = 360;

const port = parentPort;
if (!port) throw new Error('vision worker must run in a worker thread');

const options = (workerData ?? {}) as HumanConfigOptions;

try {
  // A thread has its own module state: it parses its copy of the service's environment (the
  // parent's at the thread's start) once, here; the engine's defaults come from the same object.
  const { vision } = mediaConfig();
  // Whisper, beside us in an analysis job, goes first (see ./priority.ts).
  niceThisThread(vision.nice);
  const engine = await createHumanEngine(options);
  // The first inference is several times slower (wasm tier-up, buffer allocation); pay it at
  // start-up, not in the first job's first frame.
  const blank = () => ({
    time: 0,
    width: WARMUP_WIDTH_PX,
    height: WARMUP_HEIGHT_PX,
    data: new Uint8Array(WARMUP_WIDTH_PX * WARMUP_HEIGHT_PX * 3).fill(128),
  });
  await engine.observe(blank());
  // A blank frame shows no wrist, so `observe` skips the hand model: warm it up on its own.
  await engine.detectHands(blank());
  // Requests are handled strictly in order: tfjs-wasm is single-threaded here, and a queue
  // inside the worker keeps the pool's bookkeeping simple.
  const answers = answerInOrder<Omit<Extract<WorkerReply, { type: 'result' }>, 'type' | 'id'>>(
    (reply: WorkerReply) => port.postMessage(reply),
  );
  port.on('message', (msg: WorkerRequest) => {
    if (msg.type === 'close') {
      answers.settled().finally(() => {
        engine.dispose();
        port.close();
      });
      return;
    }
    answers.answer(msg.id, async () => {
      const { observation, timings } = await engine.observe(msg.frame);
      return { observation, timings };
    });
  });
  port.postMessage({ type: 'ready' } satisfies WorkerReply);
} catch (err) {
  port.postMessage({ type: 'fatal', message: (err as Error).stack ?? String(err) } satisfies WorkerReply);
}
