/** Worker of priority.test.ts: nices its own thread and reports its thread id (−1 if it could not). */
import { readlinkSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { niceThisThread } from '../../../../../../containers/media/engines/vision/priority.js';

const ok = niceThisThread(7);
parentPort!.postMessage(ok ? Number(readlinkSync('/proc/thread-self').split('/').pop()) : -1);
