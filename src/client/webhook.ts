/**
 * @module client/webhook
 * Verifying a webhook delivery on the receiving side, with the Standard Webhooks library
 * (`standardwebhooks`): the signature over id, timestamp and the exact body, and a timestamp within
 * five minutes (replays of old deliveries are refused).
 */
import { Webhook } from 'standardwebhooks';
import type { WebhookPayload } from '../contract/webhooks.js';

export type { WebhookPayload };

/**
 * The delivery's payload when `body` (the raw text, exactly as received) carries a valid signature
 * of `secret` (`whsec_…`, from `GET /api/webhooks/secret`); throws otherwise.
 * @example
 * const event = verifyWebhook(rawBody, req.headers, process.env.WEBHOOK_SECRET!);
 * if (event.type === 'job.completed') console.log(event.data.video_id);
 */
export function verifyWebhook(
  body: string,
  headers: Headers | Record<string, string | string[] | undefined>,
  secret: string,
): WebhookPayload {
  const get = (name: string): string => {
    const value = headers instanceof Headers ? headers.get(name) : headers[name];
    return (Array.isArray(value) ? value[0] : value) ?? '';
  };
  const wanted = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];
  return new Webhook(secret).verify(
    body,
    Object.fromEntries(wanted.map((h) => [h, get(h)])),
  ) as WebhookPayload;
}
