/**
 * @module containers/media/engines/render/routes
 * `POST /render` (multipart: `source` — or none when the request names the job's stored source,
 * `x-stored-source: 1` — optional `speech`, `options` JSON) → the MP4, with the
 * render report in the `x-render-report` header; `GET /render/probe` and `GET /render/progress/{job}`
 * answer about a job's render while it runs, `GET /render/speech/{job}` with its new speech's
 * timed words once it has answered. Parts stream to a temp directory that is
 * removed once the response body has been sent (or the client went away).
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { MEDIA_HEADERS, MEDIA_ROUTES } from '../../../../src/contract/media-protocol.js';
import { probeFile } from '../../core/ffmpeg.js';
import { hintsFrom, rawPcmInputArgs, requestInput, type TempInput } from '../../core/input.js';
import { mediaLimitsFrom } from '../../core/media-limits.js';
import { probeAnswer as answerFor } from '../../core/probe-answer.js';
import { WORK_DIR_PREFIX } from '../../core/stale-work-dirs.js';
import { currentScope } from '../../core/work-scope.js';
import { defaultRenderEngines } from './engines.js';
import { badInput } from './errors.js';
import { earlySegmenter } from './early-segmenter.js';
import { receiveForm } from './multipart.js';
import { parseRenderOptions } from './options.js';
import { renderProbe, startRenderProbe } from './render-probes.js';
import { renderProgress, trackRenderProgress } from './render-progress.js';
import { forgetRenderSpeech, keepRenderSpeech, renderSpeech } from './render-speech.js';
import { renderVideo, type RenderEngines } from './render.js';

export interface RenderRoutesOptions {
  /** Engines used by renders. Default: the embedded engines plus env-configured adapters. */
  engines?: RenderEngines;
  /** Parent of per-request temp directories. Default os.tmpdir(). */
  tmpRoot?: string;
}

/** Builds the render sub-app. */
export function createRenderRoutes({
  engines = defaultRenderEngines(),
  tmpRoot = tmpdir(),
}: RenderRoutesOptions = {}) {
  const app = new Hono();
  app.post(MEDIA_ROUTES.render, async function render(c) {
    const startedAt = performance.now();
    const jobId = currentScope()?.jobId ?? null;
    // The Worker may ask for this render's probe of the source (GET /render/probe) meanwhile.
    const probeAnswer = jobId ? startRenderProbe(jobId) : null;
    // … and how far it has encoded (GET /render/progress/{job}).
    const progress = jobId ? trackRenderProgress(jobId) : null;
    let stored: TempInput | null = null;
    const workDir = await mkdtemp(join(tmpRoot, WORK_DIR_PREFIX.render));
    const early = earlySegmenter(engines);
    let handedOff = false;
    try {
      // A job that sent its source already names it (`x-stored-source`): the form has no `source`
      // part. Looked up first: when it is gone, the 404 comes before the form is read.
      if (c.req.header(MEDIA_HEADERS.storedSource) === '1') stored = await requestInput(c.req.raw);
      const abort = new AbortController();
      c.req.raw.signal?.addEventListener('abort', () => abort.abort(), { once: true });
      // DELETE of the job and the request's budget end the engines' own work too, not only processes.
      currentScope()?.signal.addEventListener('abort', () => abort.abort(), { once: true });
      const form = await receiveForm(c.req.raw, workDir, {
        fileParts: ['source', 'speech'],
        onField: early.onField,
      });
      const receiveMs = performance.now() - startedAt;
      const source = stored
        ? { path: stored.path, bytes: stored.bytes, ...hintsFrom(c.req.raw.headers) }
        : form.files.source;
      if (!source || source.bytes === 0)
        throw badInput('source_missing', 'source: a video file part named "source" is required');
      const speech = form.files.speech;
      if (speech && speech.bytes === 0) throw badInput('speech_unreadable', 'speech: the part is empty');
      const options = parseRenderOptions(form.fields.options);
      const limits = mediaLimitsFrom(c.req.raw.headers);
      // One probe of the source: the render's, and `POST /probe`'s answer for GET /render/probe.
      const sourceProbe = probeFile(source.path, abort.signal, rawPcmInputArgs(source));
      sourceProbe.catch(() => {}); // the render reports it
      probeAnswer?.answer(answerFor(sourceProbe, limits));
      // A retried render must not leave the words of the one before it.
      if (jobId) forgetRenderSpeech(jobId);
      const {
        outputPath,
        report,
        speech: words,
      } = await renderVideo(
        {
          sourcePath: source.path,
          speechPath: speech?.path,
          options,
          workDir,
          signal: abort.signal,
          limits,
          sourceProbe,
          onProgress: progress?.set,
        },
        early.engines(),
      );
      if (jobId && words) keepRenderSpeech(jobId, words);
      const { size } = await stat(outputPath);
      const file = createReadStream(outputPath);
      const sendFrom = performance.now();
      file.once('close', () => {
        void rm(workDir, { recursive: true, force: true });
        logParts(jobId, { receive: receiveMs, ...report.stages_ms, send: performance.now() - sendFrom });
      });
      handedOff = true;
      return new Response(Readable.toWeb(file) as unknown as ReadableStream, {
        status: 200,
        headers: {
          'content-type': 'video/mp4',
          'content-length': String(size),
          [MEDIA_HEADERS.renderReport]: asciiJson(report),
        },
      });
    } catch (err) {
      probeAnswer?.failed(err);
      throw err;
    } finally {
      early.dispose();
      await stored?.[Symbol.asyncDispose]();
      probeAnswer?.ended();
      progress?.ended();
      if (!handedOff) await rm(workDir, { recursive: true, force: true });
    }
  });
  // The probe of the source by this job's render (render-probes.ts): the job id is the request's.
  app.get(MEDIA_ROUTES.renderProbe, async function probeOfRender(c) {
    const jobId = currentScope()?.jobId;
    if (!jobId) throw badInput('options_invalid', 'x-job-id: the job whose render to ask is required');
    const answer = await renderProbe(jobId);
    return c.json(answer.body, answer.status);
  });
  // How far the job's render has encoded. The job is in the path, not x-job-id: this question
  // names no job to the admission, so it never waits behind the render it asks about.
  app.get(MEDIA_ROUTES.renderProgress, function progressOfRender(c) {
    const fraction = renderProgress(c.req.param('job'));
    if (fraction === null)
      return c.json({ error: { code: 'no_render', message: 'no render of this job ran here lately' } }, 404);
    return c.json({ fraction });
  });
  // The new speech's words of the job's last render (the report's `speech` counts them). In the
  // path like the progress: asked once the render is over, it never waits for an admission.
  app.get(MEDIA_ROUTES.renderSpeech, function speechOfRender(c) {
    const speech = renderSpeech(c.req.param('job'));
    if (!speech)
      return c.json(
        { error: { code: 'no_render', message: 'no timed speech of a render of this job is kept here' } },
        404,
      );
    return c.json(speech);
  });
  return app;
}

/**
 * One log line per part of a job's render request, after its output was sent: the Worker's render
 * step holds them (bench/gates prints them under it). Stages may overlap (both probes run at once).
 */
function logParts(jobId: string | null, parts: Record<string, number>): void {
  if (!jobId) return;
  for (const [step, ms] of Object.entries(parts))
    console.log(
      JSON.stringify({ level: 'info', video_id: jobId, step, within: 'render', ms: Math.round(ms) }),
    );
}

/** The sub-app with default engines; the container server mounts it. */
export const renderRoutes = createRenderRoutes();

/** JSON with every non-ASCII character escaped: header values must be ASCII (notes may hold "–", names "é"). */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
