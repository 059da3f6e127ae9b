/**
 * @module api/openapi/webhooks
 * The document's `webhooks` (OpenAPI 3.1): the POST this service makes to a `webhook_url`.
 */
import { WEBHOOK_EVENTS } from '../../contract/webhooks.js';

const header = (description: string, schema: Record<string, unknown>) => ({
  in: 'header',
  required: true,
  description,
  schema,
});

export function webhookDocs(): Record<string, unknown> {
  return {
    jobEvent: {
      post: {
        summary: 'A job ended, or an avatar was registered',
        description: `Sent to the \`webhook_url\` of analyze-video, process-video or register-avatar, in the Standard Webhooks format (standardwebhooks.com): events ${WEBHOOK_EVENTS.map((e) => `\`${e}\``).join(', ')}. Verify it with the key's secret (GET /api/webhooks/secret) and any Standard Webhooks library, and answer 2xx within 10 s; anything else is retried with exponential backoff and jitter for 24 h (WEBHOOK_RETRY_WINDOW_SEC), with the same \`webhook-id\` and body, so deduplicate on \`webhook-id\`. Redirects are not followed.`,
        parameters: [
          header('The event’s id, the same on every retry.', {
            type: 'string',
            example: 'msg_2KWPBgLlAfxdpx2AI54pPJ',
          }),
          header('Unix seconds of this attempt; reject old ones (the libraries allow 5 minutes).', {
            type: 'string',
            example: '1700000000',
          }),
          header(
            'Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, keyed with the base64-decoded part of the `whsec_` secret; two entries for 24 h after a rotation.',
            { type: 'string' },
          ),
        ].map((p, i) => ({ ...p, name: ['webhook-id', 'webhook-timestamp', 'webhook-signature'][i] })),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookPayload' } } },
        },
        responses: {
          '2XX': { description: 'Delivered.' },
          default: { description: 'Not delivered: retried later.' },
        },
      },
    },
  };
}
