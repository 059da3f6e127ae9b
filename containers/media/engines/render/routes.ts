/**
 * @module containers/media/engines/render/routes
 * `POST /render` (multipart: `source`, optional `speech`, `options` JSON) → the MP4, with the
 * render report in the `x-render-report` header. Parts stream to a temp directory that is
 * removed once the response body has been sent (or the client went away).
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { mediaLimitsFrom } from '../../src/media-limits.js';
import { WORK_DIR_PREFIX } from '../../src/stale-work-dirs.js';
import { currentScope } from '../../src/work-scope.js';
import { defaultRenderEngines } from './engines.js';
import { badInput, RenderError } from './errors.js';
import { receiveForm } from './multipart.js';
import { parseRenderOptions } from './options.js';
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
  app.post('/render', async function render(c) {
    const workDir = await mkdtemp(join(tmpRoot, WORK_DIR_PREFIX.render));
    let handedOff = false;
    try {
      const abort = new AbortController();
      c.req.raw.signal?.addEventListener('abort', () => abort.abort(), { once: true });
      // DELETE of the job and the request's budget end the engines' own work too, not only processes.
      currentScope()?.signal.addEventListener('abort', () => abort.abort(), { once: true });
      const form = await receiveForm(c.req.raw, workDir, { fileParts: ['source', 'speech'] });
      const source = form.files.source;
      if (!source || source.bytes === 0)
        throw badInput('source_missing', 'source: a video file part named "source" is required');
      const speech = form.files.speech;
      if (speech && speech.bytes === 0) throw badInput('speech_unreadable', 'speech: the part is empty');
      const options = parseRenderOptions(form.fields.options);
      const { outputPath, report } = await renderVideo(
        {
          sourcePath: source.path,
          speechPath: speech?.path,
          options,
          workDir,
          signal: abort.signal,
          limits: mediaLimitsFrom(c.req.raw.headers),
        },
        engines,
      );
      const { size } = await stat(outputPath);
      const file = createReadStream(outputPath);
      const cleanup = () => void rm(workDir, { recursive: true, force: true });
      file.once('close', cleanup);
      handedOff = true;
      return new Response(Readable.toWeb(file) as unknown as ReadableStream, {
        status: 200,
        headers: {
          'content-type': 'video/mp4',
          'content-length': String(size),
          'x-render-report': asciiJson(report),
        },
      });
    } finally {
      if (!handedOff) await rm(workDir, { recursive: true, force: true });
    }
  });
  app.onError(function renderError(err, c) {
    if (err instanceof RenderError) {
      return c.json({ error: { code: err.code, message: err.message } }, err.status);
    }
    return c.json({ error: { code: 'render_failed', message: err.message || 'render failed' } }, 500);
  });
  return app;
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
