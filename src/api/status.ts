/**
 * @module api/status
 * GET /api/status/{video_id} (and the alias /status/{video_id}).
 * An unknown id, or one that belongs to another key, answers 200 with status "not_found".
 */
import { Hono, type Context } from 'hono';
import { ApiError } from '../contract/errors.js';
import { MAX_STATUS_WAIT_SEC, type StatusResponse } from '../contract/jobs.js';
import { isWellFormedId } from '../shared/ids.js';
import { awaitJobChange, findJob } from '../jobs/submit.js';
import { downloadTtlSec, signDownloadUrl } from '../storage/signed-url.js';
import { statusFields } from '../jobs/state.js';
import { HeldPolls, maxHeldPolls } from './held-polls.js';
import type { AppEnv } from './middleware.js';
import { signingSecret, storageOrigin } from './storage-config.js';

/** Pure: the `wait` query parameter in ms (0 when absent); a 400 naming it when it is not 0–60 whole seconds. */
export function statusWaitMs(raw: string | undefined): number {
  if (raw === undefined) return 0;
  const sec = /^\d{1,2}$/.test(raw) ? Number(raw) : NaN;
  if (!(sec <= MAX_STATUS_WAIT_SEC))
    throw new ApiError('invalid_request', `wait must be whole seconds from 0 to ${MAX_STATUS_WAIT_SEC}`, {
      field: 'wait',
    });
  return sec * 1000;
}

const NOT_FOUND: StatusResponse = {
  status: 'not_found',
  progress: 0,
  download_url: null,
  result: null,
  error_message: null,
};

const heldPolls = new HeldPolls();

/** Runs one long-poll within the key's bound of held polls (`api/held-polls.ts`). */
async function heldPoll<T>(c: Context<AppEnv>, wait: () => Promise<T>): Promise<T> {
  const limit = maxHeldPolls(c.env);
  const release = heldPolls.enter(c.get('tenant').id, limit);
  if (!release)
    throw new ApiError(
      'rate_limited',
      `this API key already holds ${limit} status long-polls (wait=…); poll without wait, or wait for one to answer`,
      { reason: 'held_polls', limit },
    );
  try {
    return await wait();
  } finally {
    release();
  }
}

async function statusHandler(c: Context<AppEnv>): Promise<Response> {
  c.header('Cache-Control', 'private, no-store');
  const videoId = c.req.param('video_id') ?? '';
  const waitMs = statusWaitMs(c.req.query('wait'));
  const found = isWellFormedId(videoId) ? await findJob(c.env, videoId, c.get('tenant').id) : null;
  // Long-poll: a running job's answer waits for its status or progress to move (terminal and unknown at once).
  const job = found && waitMs > 0 ? await heldPoll(c, () => awaitJobChange(c.env, found, waitMs)) : found;
  if (!job) return c.json(NOT_FOUND);

  const body = statusFields(job);
  if (job.status === 'completed' && job.kind === 'processing')
    body.download_url = await signDownloadUrl(
      storageOrigin(c),
      signingSecret(c.env),
      job.output_key,
      downloadTtlSec(c.env),
    );
  if (job.status === 'completed' && job.kind === 'analysis') {
    const stored = await c.env.MEDIA.get(job.result_key);
    if (stored) return streamWithResult(body, stored.body);
    body.status = 'failed';
    body.progress = job.progress;
    body.error_message = 'the analysis result is no longer stored';
  }
  return c.json(body);
}

/** Splices the stored result JSON into the response without parsing it (results may be many MB). */
function streamWithResult(body: StatusResponse, result: ReadableStream<Uint8Array>): Response {
  const json = JSON.stringify({ ...body, result: '\u0000' });
  const [before, after] = json.split('"\\u0000"');
  const encoder = new TextEncoder();
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  (async () => {
    const writer = writable.getWriter();
    try {
      await writer.write(encoder.encode(before));
      const reader = result.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        await writer.write(value);
      }
      await writer.write(encoder.encode(after));
      await writer.close();
    } catch (err) {
      await writer.abort(err);
    }
  })();
  return new Response(readable, {
    headers: { 'Content-Type': 'application/json; charset=UTF-8', 'Cache-Control': 'private, no-store' },
  });
}

export const statusRoutes = new Hono<AppEnv>()
  .get('/api/status/:video_id', statusHandler)
  .get('/status/:video_id', statusHandler);
