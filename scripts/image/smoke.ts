/**
 * `npm run image:smoke`: the built media image answering real jobs through the public API.
 * Starts the image's service, points `wrangler dev` at it (CONTAINER_URL, scripts/start.mjs),
 * and runs an analysis with visual analytics and a processing job with blur and new speech on a
 * 10 s 720p talking head; then one blur and one visual job at once on 30 s, sampling the image's
 * processes (peak memory, CPU); then the same two jobs on the plain `npm start` path
 * (IMAGE_SMOKE_COMPARE=0 skips it). Exits non-zero when a job fails or an engine fell back.
 * Ports: PORT (the API, default 8787) and CONTAINER_PORT (the media service, default 8788).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { talkingHead720p } from '../../bench/support/media.js';
import { cpuByRole } from '../../bench/support/service-cpu.js';
import { rssPeaks } from '../../bench/support/service-rss.js';
import { devKey, timeJob, type JobRun } from '../../bench/support/service.js';
import { VideoApiClient } from '../../src/client/index.js';
// @ts-expect-error: plain ES modules of the image scripts (no type declarations)
import { IMAGE, ROOT } from './config.mjs';
// @ts-expect-error: as above
import { startApi, startImageService } from './service.mjs';
// @ts-expect-error: as above
import { buildEngine, imageSize } from './tools.mjs';

const SPEECH = 'Thanks for watching. This clip was rendered by the media image, with a new voice.';

interface PathRun {
  analysis: JobRun;
  processing: JobRun;
  outputBytes: number | null;
}

const problems: string[] = [];
const expect = (ok: boolean, what: string) => {
  if (!ok) problems.push(what);
};

async function runJobs(client: VideoApiClient, clip: string, dir: string, label: string): Promise<PathRun> {
  const analysis = await timeJob(client, (c) => c.analyzeVideo(clip, { visualAnalytics: true }));
  const processing = await timeJob(client, (c) =>
    c.processVideo({ file: clip, blurBackground: true, voiceGenerator: '0', description: SPEECH }),
  );
  let outputBytes: number | null = null;
  if (processing.status === 'completed') {
    const out = join(dir, `${label}-output.mp4`);
    await client.download(processing.videoId, out);
    outputBytes = statSync(out).size;
  }
  const result = analysis.final?.result;
  expect(analysis.status === 'completed', `${label}: analysis ${analysis.status} ${analysis.error ?? ''}`);
  expect(
    result?.speech_engine?.model === 'faster-whisper-base',
    `${label}: speech engine ${JSON.stringify(result?.speech_engine)}`,
  );
  expect((result?.merged_visual_time_series?.length ?? 0) > 0, `${label}: no visual time series`);
  const report = processing.final?.processing_report;
  expect(
    processing.status === 'completed',
    `${label}: processing ${processing.status} ${processing.error ?? ''}`,
  );
  expect(report?.voice?.engine === 'piper', `${label}: voice ${JSON.stringify(report?.voice)}`);
  expect(report?.options_applied.includes('blur_background') === true, `${label}: blur not applied`);
  return { analysis, processing, outputBytes };
}

/** One blur and one visual job at once on the image's service: its peak memory and CPU. */
async function underLoad(client: VideoApiClient, clip: string, procRoot: string) {
  const rss = rssPeaks(procRoot);
  const cpu = cpuByRole(procRoot);
  const t0 = performance.now();
  const [visual, blur] = await Promise.all([
    timeJob(client, (c) => c.analyzeVideo(clip, { visualAnalytics: true })),
    timeJob(client, (c) => c.processVideo({ file: clip, blurBackground: true })),
  ]);
  const wallSec = (performance.now() - t0) / 1000;
  const byRole: Map<string, number> = cpu.stop();
  const peak = rss.stop();
  expect(
    visual.status === 'completed' && blur.status === 'completed',
    `under load: ${visual.status}, ${blur.status}`,
  );
  // The native MediaPipe segmenter is a Python child (vision_worker.py); `segmenter` is the TF.js fallback's process.
  expect(
    (byRole.get('python engine') ?? 0) > 0,
    'under load: the native segmenter (vision_worker.py) did not run',
  );
  expect(!byRole.has('segmenter'), 'under load: the TF.js segmenter (the fallback) ran');
  const cpuSec = [...byRole.values()].reduce((a, b) => a + b, 0);
  return { visual, blur, wallSec, peakMiB: peak.media, cpuSec, byRole };
}

const sec = (s: number | undefined) => (s === undefined ? '–' : `${s.toFixed(1)} s`);

function analysisLine(run: JobRun): string {
  const r = run.final?.result;
  if (!r) return `${run.status} ${run.error ?? ''}`;
  return (
    `${run.status}, ${r.transcript.split(/\s+/).filter(Boolean).length} words, ` +
    `${r.summary.words_per_minute} wpm, fillers ${r.summary.filler_word_count}, ` +
    `emotion ${r.summary.emotion}, ${r.merged_visual_time_series?.length ?? 0} visual samples, ` +
    `speech ${r.speech_engine?.engine}/${r.speech_engine?.model}`
  );
}

function processingLine(run: JobRun, bytes: number | null): string {
  const p = run.final?.processing_report;
  if (!p) return `${run.status} ${run.error ?? ''}`;
  return (
    `${run.status}, ${p.options_applied.join('+')}, voice ${p.voice?.engine}/${p.voice?.voice_id}, ` +
    `${p.output.width}×${p.output.height} ${p.output.duration_sec} s (${p.output.fit}), ` +
    `${bytes === null ? '?' : (bytes / 1e6).toFixed(1)} MB` +
    (p.notes.length ? `; notes: ${p.notes.join(' | ')}` : '')
  );
}

async function main() {
  const apiPort = Number(process.env.PORT ?? 8787);
  const servicePort = Number(process.env.CONTAINER_PORT ?? 8788);
  const compare = process.env.IMAGE_SMOKE_COMPARE !== '0';
  const dir = mkdtempSync(join(tmpdir(), 'image-smoke-'));
  try {
    const clip = talkingHead720p(dir, 10);
    const loadClip = talkingHead720p(dir, 30);
    const engine = buildEngine();
    const size: number = imageSize(engine, IMAGE);
    console.log(`[smoke] ${IMAGE}: ${(size / 1e6).toFixed(0)} MB (${engine})`);

    const svc = await startImageService(servicePort);
    let image: PathRun;
    let load: Awaited<ReturnType<typeof underLoad>>;
    try {
      console.log(
        `[smoke] image service: /health after ${sec(svc.healthSec)}; Piper voice ${sec(svc.seen.piper)}, ` +
          `vision workers ${sec(svc.seen.vision)} (container root made in ${sec(svc.createSec)})`,
      );
      const api = await startApi({
        apiPort,
        servicePort,
        containerUrl: `http://127.0.0.1:${servicePort}`,
        persistDir: join(dir, 'state-image'),
      });
      try {
        const client = new VideoApiClient({ baseUrl: `http://127.0.0.1:${apiPort}`, apiKey: devKey() });
        image = await runJobs(client, clip, dir, 'image');
        load = await underLoad(client, loadClip, svc.procRoot);
      } finally {
        await api.stop();
      }
    } finally {
      await svc.stop();
    }

    let plain: PathRun | null = null;
    let plainReady: { healthSec?: number; seen: Record<string, number> } | null = null;
    if (compare) {
      const api = await startApi({ apiPort, servicePort, persistDir: join(dir, 'state-npm') });
      try {
        plainReady = api;
        const client = new VideoApiClient({ baseUrl: `http://127.0.0.1:${apiPort}`, apiKey: devKey() });
        plain = await runJobs(client, clip, dir, 'npm start');
      } finally {
        await api.stop();
      }
    }

    const rows: Array<[string, string, string]> = [
      ['', 'image', 'npm start'],
      ['start → /health', sec(svc.healthSec), sec(plainReady?.healthSec)],
      ['start → Piper voice loaded', sec(svc.seen.piper), sec(plainReady?.seen.piper)],
      ['start → vision workers ready', sec(svc.seen.vision), sec(plainReady?.seen.vision)],
      ['analysis + visual (10 s 720p)', sec(image.analysis.wallSec), sec(plain?.analysis.wallSec)],
      ['blur + new speech (10 s 720p)', sec(image.processing.wallSec), sec(plain?.processing.wallSec)],
    ];
    console.log('\n[smoke] wall times (upload to final status)');
    for (const [a, b, c] of rows) console.log(`  ${a.padEnd(32)}${b.padEnd(12)}${c}`);
    console.log('\n[smoke] analysis');
    console.log(`  image:     ${analysisLine(image.analysis)}`);
    if (plain) console.log(`  npm start: ${analysisLine(plain.analysis)}`);
    console.log('[smoke] processing');
    console.log(`  image:     ${processingLine(image.processing, image.outputBytes)}`);
    if (plain) console.log(`  npm start: ${processingLine(plain.processing, plain.outputBytes)}`);
    console.log(
      `\n[smoke] one blur + one visual job at once (30 s 720p) on the image: ${sec(load.wallSec)} ` +
        `(visual ${sec(load.visual.wallSec)}, blur ${sec(load.blur.wallSec)}); peak memory of the ` +
        `image's processes ${load.peakMiB.toFixed(0)} MiB; ${load.cpuSec.toFixed(1)} CPU-s = ` +
        `${(load.cpuSec / load.wallSec).toFixed(2)} cores on average`,
    );
    console.log(
      `  CPU-s by process: ${[...load.byRole]
        .sort((a, b) => b[1] - a[1])
        .map(([role, s]) => `${role} ${s.toFixed(1)}`)
        .join(', ')}`,
    );
    const imageVersion = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    console.log(`\n[smoke] checkout ${imageVersion}; ${problems.length ? 'FAILED' : 'passed'}`);
    for (const p of problems) console.log(`  ✗ ${p}`);
    return problems.length === 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = (await main()) ? 0 : 1;
