/**
 * @module contract/webhooks
 * Webhooks (extension) in the Standard Webhooks format (standardwebhooks.com): the events, the
 * body of a delivery, the signing secret and the delivery log of `GET /api/jobs/{id}/webhooks`.
 */
import { z } from 'zod';
import { StatusResponse } from './jobs.js';

/** The form field that asks for webhooks, on analyze-video, process-video and register-avatar. */
export const WEBHOOK_URL_FIELD = 'webhook_url';
export const WEBHOOK_URL_MAX_CHARS = 2048;
export const WEBHOOK_EVENTS = ['job.completed', 'job.failed', 'avatar.registered'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** A delivery is answered within this or it failed (and is retried). */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** An analysis result larger than this (bytes of JSON) is left out of the body (`result_omitted`). */
export const WEBHOOK_MAX_INLINE_RESULT_BYTES = 512 * 1024;

export const WebhookSecret = z.object({
  secret: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=]+$/)
    .describe('`whsec_` + base64 of 32 random bytes: the HMAC-SHA256 key is the decoded bytes.'),
  previous_valid_until: z
    .string()
    .nullable()
    .meta({ format: 'date-time' })
    .describe('After a rotation: until when deliveries are also signed with the previous secret.'),
});
export type WebhookSecret = z.infer<typeof WebhookSecret>;

export const WebhookPayload = z
  .object({
    type: z.enum(WEBHOOK_EVENTS),
    timestamp: z.string().meta({ format: 'date-time' }).describe('When the event happened.'),
    data: StatusResponse.extend({
      video_id: z.string(),
      result_omitted: z
        .boolean()
        .optional()
        .describe(
          'True when the analysis result was larger than 512 KiB and left out (`result` null): read it from GET /api/status/{video_id}.',
        ),
    })
      .partial()
      .required({ video_id: true })
      .describe(
        'The job: `video_id` and the same fields as `GET /api/status/{video_id}` at its end (`download_url` signed when the event was made, valid 24 h). For `avatar.registered`: `video_id` (the avatar id) and `registration_status: true`.',
      )
      .catchall(z.unknown()),
  })
  .describe(
    'The body of a webhook delivery. Headers: `webhook-id` (the same on every retry of one event), `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature` (space-separated `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, one per valid secret).',
  );
export type WebhookPayload = z.infer<typeof WebhookPayload>;

export const WEBHOOK_STATES = ['pending', 'delivered', 'given_up', 'refused'] as const;
export type WebhookState = (typeof WEBHOOK_STATES)[number];

export const WebhookAttempt = z.object({
  at: z.string().meta({ format: 'date-time' }),
  status_code: z.number().int().nullable().describe('The receiver’s HTTP status; null when none came.'),
  error: z.string().nullable().describe('Why the attempt failed, when it did (timeout, refused address…).'),
  duration_ms: z.number().int(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const WebhookDelivery = z.object({
  webhook_id: z.string(),
  type: z.enum(WEBHOOK_EVENTS),
  url: z.string(),
  state: z
    .enum(WEBHOOK_STATES)
    .describe(
      '`pending` (to be tried, or retried at `next_attempt_at`), `delivered` (a 2xx came), `given_up` (no 2xx within the retry window, 24 h by default), `refused` (the URL resolves to an address deliveries may not reach).',
    ),
  created_at: z.string().meta({ format: 'date-time' }),
  next_attempt_at: z.string().nullable().meta({ format: 'date-time' }),
  attempts: z.array(WebhookAttempt),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveries = z.object({ data: z.array(WebhookDelivery) });
export type WebhookDeliveries = z.infer<typeof WebhookDeliveries>;
