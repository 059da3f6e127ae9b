/**
 * @module containers/media/engines/asr/align-thread-worker
 * Worker-thread entry of the alignment thread: owns the soundswallower decoder (`align.ts`) and
 * answers `AlignRequest`s with `AlignReply`s. Started by `align-thread.ts`; never imported.
 */
import { parentPort } from 'node:worker_threads';
import { alignText, withDecoder } from './align.js';
import { alignSpanWithFillers } from './align-fillers.js';
import type { AlignReply, AlignRequest } from './align-thread.js';
import { AsrError } from './errors.js';

const port = parentPort;
if (!port) throw new Error('the alignment thread must run in a worker thread');

port.on('message', (req: AlignRequest) => {
  // align.ts serialises its decoder's calls itself; each answer goes out when its call is done.
  const work =
    req.kind === 'warm'
      ? withDecoder(() => undefined)
      : req.kind === 'text'
        ? alignText(req.pcm, req.text)
        : alignSpanWithFillers(req.pcm, req.offsetSec, req.words, req.options);
  work.then(
    (words) => port.postMessage({ id: req.id, ok: true, words } satisfies AlignReply),
    (err: unknown) =>
      port.postMessage({
        id: req.id,
        ok: false,
        code: err instanceof AsrError ? err.code : 'engine_failed',
        message: err instanceof Error ? err.message : String(err),
      } satisfies AlignReply),
  );
});
