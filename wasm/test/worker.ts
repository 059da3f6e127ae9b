/**
 * @module
 * Tiny test Worker for the edge WebAssembly steps: `POST /analyze` with a media file as the
 * body answers `{ durationSec, hasAudio, hasVideo, segments }`. It exists so that
 * `wrangler deploy --dry-run` bundles exactly what a Worker using `wasm/` ships, and so the
 * steps can be tried by hand with `wrangler dev -c wasm/test/wrangler.toml`.
 */
import { EdgeBudgetError, extractPcm16k, MediaDecodeError } from '../ffmpeg/index.js';
import { detectSpeech } from '../vad/index.js';

export default {
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (request.method !== 'POST' || pathname !== '/analyze')
      return new Response('POST /analyze', { status: 404 });
    try {
      const audio = await extractPcm16k(new Uint8Array(await request.arrayBuffer()));
      const segments = audio.hasAudio ? await detectSpeech(audio.pcm) : [];
      return Response.json({
        durationSec: audio.durationSec,
        hasAudio: audio.hasAudio,
        hasVideo: audio.hasVideo,
        segments,
      });
    } catch (error) {
      if (error instanceof EdgeBudgetError) return Response.json({ error: error.message }, { status: 413 });
      if (error instanceof MediaDecodeError)
        return Response.json({ error: error.message, log: error.log }, { status: 422 });
      throw error;
    }
  },
} satisfies ExportedHandler;

// The edge-audio Worker's RPC entrypoint, so edge-audio.test.ts can call it over real RPC.
export { EdgeAudio } from '../edge-audio/worker.js';
