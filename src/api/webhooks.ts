/**
 * @module api/webhooks
 * Webhooks (extension), the API's half: the `webhook_url` form field of the job-creating endpoints,
 * the key's signing secret (`GET /api/webhooks/secret`, `POST /api/webhooks/secret/rotate`) and the
 * delivery log of a job or avatar (`GET /api/jobs/{video_id}/webhooks`). Deliveries themselves are
 * made by the webhook queue's consumer (`webhooks/deliver`).
 *
 * SSRF, at submission: the URL's form, IP literals and localhost names (`checkWebhookUrl`), and,
 * when a DNS-over-HTTPS resolver is configured (production), the addresses the name resolves to;
 * a resolver that cannot answer does not refuse the job (the delivery checks again).
 */
import { Hono, type Context } from 'hono';
import { tenantStub } from '../auth/limits.js';
import { ApiError, invalidField } from '../contract/errors.js';
import {
  WEBHOOK_URL_FIELD,
  type WebhookDeliveries,
  type WebhookEvent,
  type WebhookSecret,
} from '../contract/webhooks.js';
import { isWellFormedId } from '../shared/ids.js';
import { findJob } from '../jobs/submit.js';
import type { DeliveryRow, SigningSecrets } from '../jobs/tenant-object.js';
import { findAvatar } from '../storage/avatars.js';
import { checkWebhookUrl } from '../webhooks/address-guard.js';
import { webhookBody } from '../webhooks/payload.js';
import { guardPolicy, refusedDestination } from '../webhooks/resolve.js';
import type { AppEnv } from './middleware.js';
import { storageOrigin } from './storage-config.js';

export { WEBHOOK_URL_FIELD };

/** The job's `webhook` from the form's `webhook_url`: null when absent; a 400 naming the field when refused. */
export async function webhookOf(
  c: Context<AppEnv>,
  fields: Record<string, string>,
): Promise<{ url: string; origin: string } | null> {
  const raw = fields[WEBHOOK_URL_FIELD]?.trim();
  if (!raw) return null;
  const checked = checkWebhookUrl(raw, guardPolicy(c.env));
  if ('refused' in checked)
    throw invalidField(WEBHOOK_URL_FIELD, `"${WEBHOOK_URL_FIELD}" ${checked.refused}`);
  let refused: string | null = null;
  try {
    refused = await refusedDestination(checked.url, c.env);
  } catch {
    // The resolver did not answer: the delivery checks again before it sends anything.
  }
  if (refused) throw invalidField(WEBHOOK_URL_FIELD, `"${WEBHOOK_URL_FIELD}" is refused: ${refused}`);
  return { url: checked.url.href, origin: storageOrigin(c) };
}

/** Queues the `avatar.registered` delivery of a new avatar. */
export async function announceAvatar(
  c: Context<AppEnv>,
  webhook: { url: string; origin: string },
  avatarId: string,
  at: number,
): Promise<void> {
  const type: WebhookEvent = 'avatar.registered';
  const tenant = c.get('tenant').id;
  await tenantStub(c.env, tenant).webhookEvent({
    tenant,
    video_id: avatarId,
    type,
    ...webhook,
    body: webhookBody(type, at, { video_id: avatarId, registration_status: true }),
  });
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const secretBody = (s: SigningSecrets, now: number): WebhookSecret => ({
  secret: s.current,
  previous_valid_until: s.previous_until !== null && s.previous_until > now ? iso(s.previous_until) : null,
});

export const webhookRoutes = new Hono<AppEnv>()
  .get('/api/webhooks/secret', async (c) => {
    c.header('Cache-Control', 'private, no-store');
    const secrets = (await tenantStub(c.env, c.get('tenant').id).webhookSecrets()) as SigningSecrets;
    return c.json(secretBody(secrets, Date.now()));
  })
  .post('/api/webhooks/secret/rotate', async (c) => {
    c.header('Cache-Control', 'private, no-store');
    const secrets = (await tenantStub(c.env, c.get('tenant').id).webhookRotate()) as SigningSecrets;
    return c.json(secretBody(secrets, Date.now()));
  })
  .get('/api/jobs/:video_id/webhooks', async (c) => {
    c.header('Cache-Control', 'private, no-store');
    const tenant = c.get('tenant').id;
    const id = c.req.param('video_id');
    const owned = !isWellFormedId(id)
      ? false
      : id.startsWith('avt_')
        ? (await findAvatar(c.env.MEDIA, tenant, id)) !== null
        : (await findJob(c.env, id, tenant)) !== null;
    if (!owned) throw new ApiError('not_found', 'no job with this id for this API key');
    const rows = (await tenantStub(c.env, tenant).webhookList(id)) as DeliveryRow[];
    const body: WebhookDeliveries = {
      data: rows.map((d) => ({
        webhook_id: d.id,
        type: d.type,
        url: d.url,
        state: d.state,
        created_at: iso(d.created_at)!,
        next_attempt_at: d.state === 'pending' ? iso(d.next_at) : null,
        attempts: d.attempts,
      })),
    };
    return c.json(body);
  });
