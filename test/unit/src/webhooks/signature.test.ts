import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signingSecretsAt } from '../../../../src/jobs/tenant/webhook-deliveries.js';
import { signWebhook } from '../../../../src/webhooks/signature.js';

describe('signWebhook', () => {
  const body = JSON.stringify({
    type: 'job.completed',
    timestamp: '2026-01-01T00:00:00.000Z',
    data: { video_id: 'vid_x' },
  });
  const now = Math.floor(Date.now() / 1000);

  it('should sign as the standardwebhooks library verifies', async () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(now),
      'webhook-signature': await signWebhook([secret], 'msg_1', now, body),
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    // Another body, id or secret does not verify.
    expect(() => new Webhook(secret).verify(body.replace('vid_x', 'vid_y'), headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('should carry one signature per secret, each verifying with its own', async () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const signature = await signWebhook([current, previous], 'msg_9', now, body);
    expect(signature.split(' ')).toHaveLength(2);
    const headers = {
      'webhook-id': 'msg_9',
      'webhook-timestamp': String(now),
      'webhook-signature': signature,
    };
    expect(new Webhook(current).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
  });

  it('should sign with the previous secret only within its overlap', () => {
    const s = { current: 'whsec_a', previous: 'whsec_b', previous_until: 1_000 };
    expect(signingSecretsAt(s, 999)).toEqual(['whsec_a', 'whsec_b']);
    expect(signingSecretsAt(s, 1_000)).toEqual(['whsec_a']);
    expect(signingSecretsAt({ current: 'whsec_a', previous: null, previous_until: null }, 0)).toEqual([
      'whsec_a',
    ]);
  });
});
