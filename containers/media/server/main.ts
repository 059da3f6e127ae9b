/**
 * @module containers/media/server/main
 * Starts the media service on PORT (default 8788).
 */
import { serve } from '@hono/node-server';
import { preloadAsr } from '../engines/asr/routes.js';
import { preloadPiperVoice, ttsPreloadWanted } from '../engines/tts/embedded.js';
import { preloadVision, visionPreloadWanted } from '../engines/vision/pool.js';
import { createMediaApp } from './server.js';
import { sweepStaleWorkDirs } from '../core/stale-work-dirs.js';

const port = Number(process.env.PORT ?? process.env.CONTAINER_PORT ?? 8788);
const hostname = process.env.HOST ?? '0.0.0.0';
void sweepStaleWorkDirs().then(
  (removed) =>
    removed.length && console.log(`media container: removed ${removed.length} stale work directories`),
);
const server = serve({ fetch: createMediaApp().fetch, port, hostname }, (info) => {
  console.log(`media container listening on http://${hostname}:${info.port}`);
  void preloadAsr();
  if (ttsPreloadWanted())
    void preloadPiperVoice().then((ok) => ok && console.log('media container: Piper voice loaded'));
  if (visionPreloadWanted())
    void preloadVision().then((ok) => ok && console.log('media container: vision workers ready'));
});
// Long renders: do not cut requests off mid-stream.
(server as unknown as { requestTimeout: number }).requestTimeout = 0;
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
