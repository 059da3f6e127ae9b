/**
 * @module containers/media/engines/face-tracking/face-track-thread
 * Worker-thread entry of `createFaceTrackerThread`: owns one Human instance (its own wasm heap)
 * and answers face-mesh requests strictly in order. Never imported by other modules.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadHuman } from '../vision/human/load.js';
import { niceThisThread } from '../vision/priority.js';
import { answerInOrder } from '../../core/thread-entry.js';
import { detectFace, type FaceMesh } from './face-track.js';

export type FaceThreadRequest = { id: number; rgb: Uint8Array; width: number; height: number; iris: boolean };
export type FaceThreadReply =
  | { type: 'ready' }
  | { type: 'fatal'; message: string }
  | { type: 'result'; id: number; face: FaceMesh | null }
  | { type: 'error'; id: number; message: string };

const port = parentPort;
if (!port) throw new Error('face-track-thread must run in a worker thread');
// The job's nice value (its child processes run at the same): long work yields to short jobs.
const { nice = 0 } = (workerData ?? {}) as { nice?: number };
if (nice > 0) niceThisThread(nice);

try {
  const human = await loadHuman();
  // The first inference is several times slower (wasm tier-up): pay it before the first frame.
  const blank = new Uint8Array(64 * 64 * 3).fill(128);
  await detectFace(human, blank, 64, 64, true);
  const answers = answerInOrder<{ face: FaceMesh | null }>((reply: FaceThreadReply) =>
    port.postMessage(reply),
  );
  port.on('message', (msg: FaceThreadRequest) =>
    answers.answer(msg.id, async () => ({
      face: await detectFace(human, msg.rgb, msg.width, msg.height, msg.iris),
    })),
  );
  port.postMessage({ type: 'ready' } satisfies FaceThreadReply);
} catch (err) {
  port.postMessage({ type: 'fatal', message: (err as Error).stack ?? String(err) } satisfies FaceThreadReply);
}
