/**
 * @module webhooks/deliver
 * The webhook queue's consumer: one attempt per message. Each message names a delivery the tenant
 * object holds; the consumer leases it (a duplicate message then finds nothing to do), fixes its
 * body at the first attempt, checks the destination (SSRF guard, after DNS), POSTs it signed, and
 * records the attempt. A 2xx within WEBHOOK_TIMEOUT_MS (10 s) is delivered; anything else (another
 * status, a redirect, which is not followed, no answer, a refused connection) is retried with
 * backoff until the retry window (24 h) has passed, then given up. Retries are new messages with a
 * delay, so no attempt waits in a worker, and none lasts more than the timeout.
 */
import { WEBHOOK_TIMEOUT_MS, type WebhookAttempt, type WebhookState } from '../contract/webhooks.js';
import type { Env } from '../shared/env.js';
import { findJob } from '../jobs/submit.js';
import type { DeliveryRow, TenantObject, WebhookMessage } from '../jobs/tenant-object.js';
import { signingSecretsAt } from '../jobs/tenant-object.js';
import { jobWebhookBody } from './payload.js';
import { refusedDestination } from './resolve.js';
import { nextAttemptAt, retryPolicy } from './schedule.js';
import { signWebhook } from './signature.js';

/** Longest delay of one queue message (Cloudflare Queues' limit); a later attempt is re-queued on arrival. */
export const MAX_QUEUE_DELAY_SEC = 43_200;
/** A delivery is leased to one consumer this long: one attempt's timeout and its bookkeeping. */
const LEASE_MS = WEBHOOK_TIMEOUT_MS + 20_000;
const HANDLER_FAILURE_DELAY_SEC = 10;

export const isWebhookQueue = (name: string) => name.endsWith('-webhooks');

const tenantOf = (env: Env, tenant: string): DurableObjectStub<TenantObject> =>
  env.TENANT.get(env.TENANT.idFromName(tenant));

const delaySec = (at: number, now: number) =>
  Math.min(MAX_QUEUE_DELAY_SEC, Math.max(0, Math.ceil((at - now) / 1000)));

export async function handleWebhookBatch(batch: MessageBatch<WebhookMessage>, env: Env): Promise<void> {
  // Each message on its own, all at once: a receiver that never answers holds only its own attempt.
  await Promise.all(
    batch.messages.map(async (msg) => {
      try {
        await attempt(msg.body, env);
        msg.ack();
      } catch (err) {
        console.error(
          JSON.stringify({ level: 'error', action: 'webhook', webhook_id: msg.body?.id, error: String(err) }),
        );
        msg.retry({ delaySeconds: HANDLER_FAILURE_DELAY_SEC });
      }
    }),
  );
}

async function attempt(msg: WebhookMessage, env: Env): Promise<void> {
  const tenant = tenantOf(env, msg.tenant);
  const verdict = await tenant.webhookBegin(msg.id, msg.n, LEASE_MS);
  if (!verdict) return; // delivered, given up, deleted, or a stale round
  if ('due_at' in verdict) {
    await env.WEBHOOKS.send(msg, { delaySeconds: delaySec(verdict.due_at, Date.now()) });
    return;
  }
  const d = verdict.go as DeliveryRow;
  const started = Date.now();
  const finish = async (
    outcome: Omit<WebhookAttempt, 'at' | 'duration_ms'>,
    state: WebhookState,
    nextAt: number | null,
  ) => {
    const now = Date.now();
    const kept = await tenant.webhookRecord(
      d.id,
      { ...outcome, at: new Date(started).toISOString(), duration_ms: now - started },
      state,
      nextAt,
    );
    if (kept && nextAt !== null)
      await env.WEBHOOKS.send({ ...msg, n: d.attempts.length + 1 }, { delaySeconds: delaySec(nextAt, now) });
  };
  const failed = (outcome: Omit<WebhookAttempt, 'at' | 'duration_ms'>) => {
    const failures = d.attempts.length + 1;
    const next = nextAttemptAt(failures, d.created_at, Date.now(), retryPolicy(env), Math.random());
    return finish(outcome, next === null ? 'given_up' : 'pending', next);
  };

  let body = d.body;
  if (body === null) {
    const job = await findJob(env, d.video_id, d.tenant);
    if (!job) return finish({ status_code: null, error: 'the job no longer exists' }, 'given_up', null);
    body = await jobWebhookBody(env, job, d.type, d.origin);
    await tenant.webhookSetBody(d.id, body);
  }

  let refused: string | null;
  try {
    refused = await refusedDestination(new URL(d.url), env);
  } catch (err) {
    return failed({ status_code: null, error: `the address could not be checked: ${String(err)}` });
  }
  if (refused) return finish({ status_code: null, error: `refused: ${refused}` }, 'refused', null);

  const timestamp = Math.floor(Date.now() / 1000);
  const secrets = signingSecretsAt(await tenant.webhookSecrets(), Date.now());
  try {
    const res = await fetch(d.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'video-api-webhooks/1',
        'webhook-id': d.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': await signWebhook(secrets, d.id, timestamp, body),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    await res.body?.cancel();
    if (res.status >= 200 && res.status < 300)
      return finish({ status_code: res.status, error: null }, 'delivered', null);
    const error = res.status >= 300 && res.status < 400 ? 'a redirect (not followed)' : null;
    return failed({ status_code: res.status, error });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    return failed({
      status_code: null,
      error: timedOut ? `no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s` : String(err),
    });
  }
}
