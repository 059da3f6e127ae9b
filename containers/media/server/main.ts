/**
 * @module containers/media/server/main
 * Starts the media service on PORT (default 8788). Its configuration is parsed first: a variable
 * set to a value that cannot be meant stops the start with a message naming it (core/config.ts).
 */
import { ConfigError, mediaConfig } from '../core/config.js';

try {
  mediaConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`media container: ${err.message}`);
  process.exit(1);
}
// Loaded after the check: these modules read their settings as they load.
const { serve } = await import('@hono/node-server');
const { preloadAsr } = await import('../engines/asr/routes.js');
const { preloadPiperVoice } = await import('../engines/tts/embedded.js');
const { preloadVision } = await import('../engines/vision/pool.js');
const { createMediaApp } = await import('./server.js');
const { sweepStaleWorkDirs } = await import('../core/stale-work-dirs.js');
const { removeSourcesRoot, startIdleSourceSweeps, sweepOrphanSourceRoots } =
  await import('../core/job-sources.js');

const { server: listen, tts, vision, core } = mediaConfig();
void sweepStaleWorkDirs().then(
  (removed) =>
    removed.length && console.log(`media container: removed ${removed.length} stale work directories`),
);
// The jobs' sources a previous life of the service kept are gone with it (the Worker sends them again).
void sweepOrphanSourceRoots().then(
  (removed) =>
    removed.length &&
    console.log(`media container: removed the job sources of ${removed.length} ended services`),
);
startIdleSourceSweeps(core.sourceTtlSec * 1000);
const server = serve({ fetch: createMediaApp().fetch, port: listen.port, hostname: listen.host }, (info) => {
  console.log(`media container listening on http://${listen.host}:${info.port}`);
  void preloadAsr();
  if (tts.preload)
    void preloadPiperVoice().then((ok) => ok && console.log('media container: Piper voice loaded'));
  if (vision.preload)
    void preloadVision().then((ok) => ok && console.log('media container: vision workers ready'));
});
// Long renders: do not cut requests off mid-stream.
(server as unknown as { requestTimeout: number }).requestTimeout = 0;
// The job sources this service kept go with it, once its last request is over.
const stop = () => server.close(() => void removeSourcesRoot().finally(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
