/**
 * Timing and memory numbers for the edge steps (the report's table). Heavy (it generates
 * a 32 MB video with native ffmpeg), so it runs only with `WASM_BENCH=1`:
 * `WASM_BENCH=1 npx vitest run --config wasm/test/vitest.config.ts bench`.
 * Times come from Node's clock (workerd's stands still while code runs). Memory is the
 * ffmpeg core's wasm memory (grows, never shrinks) and the workerd process RSS.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { extractPcm16k, getFFmpegCore } from '../ffmpeg/index.js';
import { detectSpeech, getSileroSession } from '../vad/index.js';
import '../vad/legacy-model.js';
import { clock, mediaBytes, timed } from './helpers.js';

const MiB = 2 ** 20;
const mib = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;

describe.runIf(env.WASM_BENCH)('edge steps benchmark', () => {
  it('should time the first decode (core instantiation included)', async () => {
    const bytes = await mediaBytes('containers/jfk.mp3');
    const { ms, cpuMs } = await timed(() => extractPcm16k(bytes));
    console.log(
      `[bench] first call (instantiate ffmpeg core + decode 11 s mp3): ${ms.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU`,
    );
  });

  it.each(['gen/th_10s.mp4', 'gen/th_60s.mp4', 'gen/big_32mb.mp4', 'gen/long_15min.mp3'])(
    'should decode %s',
    async (name) => {
      const core = await getFFmpegCore();
      const bytes = await mediaBytes(name);
      const before = await clock();
      const { result, ms, cpuMs } = await timed(() => extractPcm16k(bytes, { maxDurationSec: 900 }));
      const after = await clock();
      console.log(
        `[bench] decode ${name} (${(bytes.byteLength / 1e6).toFixed(1)} MB, ${result.durationSec.toFixed(1)} s audio): ${ms.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU;` +
          ` pcm ${mib(result.pcm.byteLength)}; ffmpeg wasm memory ${mib(core.HEAPU8.byteLength)}; workerd RSS ${mib(before.rssBytes)} → ${mib(after.rssBytes)}`,
      );
      expect(result.hasAudio).toBe(true);
    },
  );

  it('should time VAD on 60 s of speech, sequential and batched', async () => {
    const load = await timed(() => getSileroSession());
    console.log(
      `[bench] Silero session creation: ${load.ms.toFixed(0)} ms wall, ${load.cpuMs.toFixed(0)} ms CPU`,
    );
    const { pcm } = await extractPcm16k(await mediaBytes('gen/jfk_60s.wav'));
    await getSileroSession('legacy');
    for (const [model, maxBatch] of [
      ['v5', 1],
      ['v5', 16],
      ['legacy', 1],
    ] as const) {
      const { result, ms, cpuMs } = await timed(() => detectSpeech(pcm, { maxBatch, model }));
      const after = await clock();
      console.log(
        `[bench] VAD 60 s model=${model} maxBatch=${maxBatch}: ${ms.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU, ${result.length} segments; workerd RSS ${mib(after.rssBytes)}`,
      );
    }
  });
});
