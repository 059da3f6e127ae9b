/**
 * @module containers/media/server/server
 * The media container's HTTP service (Hono on Node): the internal API the pipeline calls.
 * Each engine family contributes its routes; this file only mounts them.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { MEDIA_HEADERS, MEDIA_ROUTES } from '../../../src/contract/media-protocol.js';
import { asrRoutes } from '../engines/asr/routes.js';
import { renderRoutes } from '../engines/render/routes.js';
import { ttsRoutes } from '../engines/tts/routes.js';
import { visionRoutes } from '../engines/vision/routes.js';
import { voiceProviderCheck } from './provider-check.js';
import { coreRoutes } from './routes.js';
import { admit } from './admission.js';
import { answerError } from './errors.js';
// Holds lower-priority keys' children while higher-priority work runs (starts itself).
import './cpu-hold.js';
import { errorBody } from '../core/errors.js';
import { openScope, runInScope, WorkAbortedError } from '../core/work-scope.js';

/**
 * Runs each request in its work scope (work-scope.ts): the job id and the wall-clock budget the
 * Worker sent, and the client's disconnect, bound every child process the request starts. A
 * request first waits for its key's turn (admission.ts); its budget starts when it is admitted.
 * A streamed response keeps its scope until its body ends.
 */
const workScopeMiddleware: MiddlewareHandler = async function workScope(c, next) {
  const budget = Number(c.req.header(MEDIA_HEADERS.workBudgetMs));
  const mediaSec = Number(c.req.header(MEDIA_HEADERS.mediaDurationSec));
  // The longest this request may wait for its key's turn: the Worker's fetch allows for it.
  const maxWait = Number(c.req.header(MEDIA_HEADERS.admissionWaitMs) ?? NaN);
  const scope = openScope({
    jobId: c.req.header(MEDIA_HEADERS.jobId) ?? null,
    budgetMs: budget > 0 ? budget : undefined,
    signal: c.req.raw.signal,
    mediaSec: mediaSec > 0 ? mediaSec : null,
    tenant: c.req.header(MEDIA_HEADERS.tenantId) ?? null,
    admitted: false,
  });
  let handedOff = false;
  try {
    try {
      const admission = await admit(scope, maxWait >= 0 ? maxWait : undefined);
      if (admission.how !== 'at once')
        console.log(
          JSON.stringify({
            level: 'info',
            path: c.req.path,
            job_id: scope.jobId,
            admission: admission.how,
            waited_ms: admission.waitedMs,
          }),
        );
    } catch (err) {
      if (!(err instanceof WorkAbortedError)) throw err;
      return c.json(errorBody('work_limit', err.message), 422);
    }
    await runInScope(scope, () => next());
    // An engine that answers 5xx (or 408 "aborted") because a limit stopped its work must not be
    // retried: the same media hits the same limit. Whatever the engine said, the answer is 422
    // with the plain reason.
    const limit =
      scope.limitHit ??
      (scope.signal.aborted
        ? String((scope.signal.reason as Error)?.message ?? 'the work was stopped')
        : null);
    if (limit && (c.res.status >= 500 || c.res.status === 408)) {
      c.res = c.json(errorBody('work_limit', limit), 422);
    }
    const body = c.res.body;
    if (body) {
      handedOff = true;
      const release = new TransformStream<Uint8Array, Uint8Array>({ flush: () => scope.dispose() });
      void body.pipeTo(release.writable).catch(() => scope.dispose());
      c.res = new Response(release.readable, c.res);
    }
  } finally {
    if (!handedOff) scope.dispose();
  }
};

export function createMediaApp(): Hono {
  const app = new Hono();
  app.onError(answerError);
  app.use('*', workScopeMiddleware);
  app.notFound((c) => c.json(errorBody('not_found', `no route ${c.req.method} ${c.req.path}`), 404));
  app.use(MEDIA_ROUTES.tts, voiceProviderCheck);
  app.route('/', coreRoutes);
  app.route('/', asrRoutes);
  app.route('/', visionRoutes);
  app.route('/', ttsRoutes);
  app.route('/', renderRoutes);
  return app;
}
