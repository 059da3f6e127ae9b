import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { EdgeBudgetError, MediaDecodeError } from '../ffmpeg/index.js';
import { extractWithEdgeAudio, type EdgeAudioRpc } from '../edge-audio/rpc.js';
import { correlation, mediaBytes, nativePcm } from './helpers.js';

// The edge-audio Worker's entrypoint, re-exported by the test Worker (wasm/test/worker.ts) and
// called through the loopback `exports`: a real RPC call, so arguments, results and errors are
// serialized as they are between the API Worker and `video-api-edge-audio`.
const loopback = exports as unknown as { EdgeAudio: Fetcher & EdgeAudioRpc };
const edgeAudio = loopback.EdgeAudio;

const streamOf = (bytes: Uint8Array, chunk = 64 * 1024) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += chunk) controller.enqueue(bytes.slice(i, i + chunk));
      controller.close();
    },
  });

describe('edge-audio Worker (EdgeAudio.extract over RPC)', () => {
  it('should decode bytes and streams like native ffmpeg', async () => {
    const [bytes, reference] = await Promise.all([
      mediaBytes('containers/jfk.mp3'),
      nativePcm('containers/jfk.mp3'),
    ]);
    const fromBytes = await edgeAudio.extract(bytes.slice());
    expect(fromBytes).toMatchObject({ hasAudio: true, hasVideo: false });
    expect(fromBytes.pcm).toBeInstanceOf(Uint8Array);
    const samples = new Int16Array(
      fromBytes.pcm.buffer,
      fromBytes.pcm.byteOffset,
      fromBytes.pcm.byteLength / 2,
    );
    expect(Math.abs(samples.length - reference.length)).toBeLessThanOrEqual(320);
    expect(fromBytes.durationSec).toBeCloseTo(samples.length / 16_000, 6);
    expect(correlation(samples, reference)).toBeGreaterThan(0.99);
    // A stream (known size, then unknown size) gives the same samples.
    for (const size of [bytes.byteLength, undefined]) {
      const audio = await extractWithEdgeAudio(edgeAudio, streamOf(bytes), { size });
      expect(audio.pcm.length).toBe(samples.length);
      expect(audio.sampleRate).toBe(16_000);
      expect(correlation(audio.pcm, samples)).toBeGreaterThan(0.99999);
    }
  });

  it('should answer hasAudio=false and empty pcm for a video without audio', async () => {
    const audio = await edgeAudio.extract(await mediaBytes('gen/video_no_audio.mp4'));
    expect(audio).toMatchObject({ hasAudio: false, hasVideo: true, durationSec: 0 });
    expect(audio.pcm.byteLength).toBe(0);
  });

  it('should give EdgeBudgetError for input over maxBytes (declared size, or found while streaming)', async () => {
    const bytes = await mediaBytes('containers/jfk.mp3');
    for (const size of [bytes.byteLength, undefined]) {
      const error = await extractWithEdgeAudio(edgeAudio, streamOf(bytes), {
        maxBytes: bytes.byteLength >> 1,
        size,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EdgeBudgetError);
      expect(error).toMatchObject({ limit: 'bytes' });
    }
  });

  it('should give EdgeBudgetError(duration) for audio over maxDurationSec', async () => {
    const error = await extractWithEdgeAudio(edgeAudio, await mediaBytes('speech/jfk.wav'), {
      maxDurationSec: 5,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EdgeBudgetError);
    expect(error).toMatchObject({ limit: 'duration' });
  });

  it('should give MediaDecodeError with ffmpeg log for bytes that are not media, and keep working', async () => {
    const error = await extractWithEdgeAudio(
      edgeAudio,
      new TextEncoder().encode('not a media file at all'),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaDecodeError);
    expect((error as MediaDecodeError).log.length).toBeGreaterThan(0);
    const audio = await extractWithEdgeAudio(edgeAudio, await mediaBytes('speech/jfk.wav'));
    expect(audio.durationSec).toBeCloseTo(11, 0);
  });

  it('should warm up over RPC and decode as before afterwards', async () => {
    await expect(edgeAudio.warmUp()).resolves.toBeUndefined();
    const audio = await edgeAudio.extract(await mediaBytes('containers/jfk.mp3'));
    expect(audio.durationSec).toBeGreaterThan(10);
  });

  it('should answer GET /health and 404 anything else over HTTP', async () => {
    const health = await edgeAudio.fetch('http://edge-audio/health');
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true });
    expect((await edgeAudio.fetch('http://edge-audio/')).status).toBe(404);
  });
});
