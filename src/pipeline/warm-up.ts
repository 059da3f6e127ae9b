/**
 * @module pipeline/warm-up
 * `warmUpIsolate`: readies this isolate for its first analysis before a job needs it:
 * - the speech analytics' modules (about a second of module evaluation, which blocks the isolate:
 *   a job's steps in the Worker wait behind it);
 * - the Silero VAD session (onnxruntime-web's wasm and the model), with one run over a second of
 *   silence;
 * - the edge-audio Worker's ffmpeg core, with one tiny decode.
 * Without it the first job after a start pays for all three (docs/benchmarks.md, "The first job
 * after a start"). Once per isolate; a failure is logged and changes nothing: each step still
 * loads what it needs.
 */
import type { Env } from '../shared/env.js';
import { detectSpeech, PCM_SAMPLE_RATE_HZ } from '../../wasm/index.js';
import { speechAnalytics } from './steps/analysis.js';
import { vadMaxBatch } from './steps/audio.js';

let warming: Promise<void> | undefined;

/** Warms this isolate once; later calls answer the same promise. Never rejects. */
export function warmUpIsolate(env: Env): Promise<void> {
  warming ??= warmAll(env);
  return warming;
}

async function warmAll(env: Env): Promise<void> {
  const parts: Record<string, () => Promise<unknown>> = {
    speech_analytics: () => speechAnalytics(),
    vad: () => detectSpeech(new Int16Array(PCM_SAMPLE_RATE_HZ), { maxBatch: vadMaxBatch(env) }),
    edge_audio: async () => env.EDGE_AUDIO?.warmUp(),
  };
  const results = await Promise.allSettled(Object.values(parts).map((warm) => warm()));
  const names = Object.keys(parts);
  const failed = results.flatMap((r, i) =>
    r.status === 'rejected' ? [`${names[i]}: ${String(r.reason)}`] : [],
  );
  if (failed.length) console.warn(JSON.stringify({ level: 'warn', warm_up_failed: failed }));
}
