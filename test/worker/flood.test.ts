/**
 * An unauthenticated flood: requests without a valid API key are counted per client address
 * (CF-Connecting-IP) and refused with 429 once over UNAUTH_RATE_LIMIT_PER_MIN (default 60); a
 * valid key is never refused for them (issue #34). Each test uses its own addresses: the counter lives in the isolate.
 */
import { describe, expect, it } from 'vitest';
import {
  clientAddress,
  DEFAULT_UNAUTH_PER_MIN,
  FailureCounter,
  UNAUTH_WINDOW_MS,
  unauthLimit,
} from '../../src/auth/limits.js';
import { ALICE, call, expectError } from './helpers.js';

let next = 1;
/** A documentation-range address (RFC 5737) no other test uses. */
const freshIp = () => `203.0.113.${next++}`;
const from = (ip: string, key: string | null = null, path = '/api/status/vid_AAAAAAAAAAAAAAAAAAAAAA') =>
  call(path, { key, headers: { 'cf-connecting-ip': ip } });

/** Spends the address's whole budget with missing and wrong keys; every one is a 401. */
async function exhaust(ip: string) {
  for (let i = 0; i < DEFAULT_UNAUTH_PER_MIN; i++) {
    const res = await from(ip, i % 2 ? `wrong-key-${i}` : null);
    expect(res.status).toBe(401);
    await res.body?.cancel();
  }
}

describe('unauthenticated flood limit', () => {
  it('should count failed authentications in RateLimit-* headers, then answer 429 with Retry-After', async () => {
    const ip = freshIp();
    const first = await from(ip);
    await expectError(first, 401, 'unauthorized');
    expect(first.headers.get('RateLimit-Limit')).toBe(String(DEFAULT_UNAUTH_PER_MIN));
    expect(first.headers.get('RateLimit-Remaining')).toBe(String(DEFAULT_UNAUTH_PER_MIN - 1));
    expect(first.headers.get('RateLimit-Policy')).toBe(`${DEFAULT_UNAUTH_PER_MIN};w=60`);
    for (let i = 1; i < DEFAULT_UNAUTH_PER_MIN; i++) await (await from(ip, 'not-a-key')).body?.cancel();

    const refused = await from(ip, 'not-a-key');
    const body = await expectError(refused, 429, 'rate_limited');
    expect(body.error).toMatchObject({ reason: 'unauthenticated_per_minute', limit: DEFAULT_UNAUTH_PER_MIN });
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('RateLimit-Remaining')).toBe('0');
    expect(refused.headers.get('RateLimit-Reset')).toBe(String(retryAfter));
    // The same on the other guarded prefixes and methods.
    await expectError(await from(ip, null, '/status/vid_AAAAAAAAAAAAAAAAAAAAAA'), 429, 'rate_limited');
    await expectError(
      await call('/api/analyze-video', { method: 'POST', key: null, headers: { 'cf-connecting-ip': ip } }),
      429,
      'rate_limited',
    );
  });

  it('should serve a valid key from a flooding address, refuse its bad ones, and leave other addresses alone', async () => {
    const flooder = freshIp();
    await exhaust(flooder);
    await expectError(await from(flooder, 'wrong-again'), 429, 'rate_limited');
    // 61 bad keys, then a valid one from the same address (one NAT): served, on its own budget.
    const valid = await from(flooder, ALICE);
    expect(valid.status).toBe(200);
    expect(valid.headers.get('RateLimit-Policy')).toBe('600;w=60');
    await expectError(await from(flooder, null), 429, 'rate_limited');
    const neighbour = await from(freshIp(), ALICE);
    expect(neighbour.status).toBe(200);
    expect(neighbour.headers.get('RateLimit-Policy')).toBe('600;w=60'); // the key's own status budget
    await expectError(await from(freshIp(), 'wrong'), 401, 'unauthorized');
  });

  it('should not count requests with a valid key', async () => {
    const ip = freshIp();
    for (let i = 0; i < DEFAULT_UNAUTH_PER_MIN + 5; i++) expect((await from(ip, ALICE)).status).toBe(200);
    const bad = await from(ip, 'wrong');
    await expectError(bad, 401, 'unauthorized');
    expect(bad.headers.get('RateLimit-Remaining')).toBe(String(DEFAULT_UNAUTH_PER_MIN - 1));
  });

  it('should count an IPv6 /64 as one address, and trust X-Forwarded-For (its last hop) only when told to', async () => {
    await exhaust('2001:db8:7:1::1');
    await expectError(await from('2001:db8:7:1:ffff:ffff:ffff:ffff'), 429, 'rate_limited');
    await expectError(await from('2001:db8:7:2::1'), 401, 'unauthorized');
    expect(clientAddress(new Headers({ 'cf-connecting-ip': '2001:0db8:0007:0001:0:0:0:1' }))).toBe(
      '2001:db8:7:1::/64',
    );
    expect(clientAddress(new Headers({ 'cf-connecting-ip': '::1' }))).toBe('0:0:0:0::/64');
    // Production: only Cloudflare's header; X-Forwarded-For is the client's to write.
    expect(clientAddress(new Headers({ 'x-forwarded-for': '198.51.100.7, 10.0.0.1' }))).toBe('local');
    expect(
      clientAddress(new Headers({ 'cf-connecting-ip': '192.0.2.1', 'x-forwarded-for': '198.51.100.7' })),
    ).toBe('192.0.2.1');
    expect(clientAddress(new Headers())).toBe('local');
    // Development: the hop a local reverse proxy appended (the last), else the dev server's socket address.
    const dev = { CLIENT_ADDRESS_HEADER: 'X-Forwarded-For' };
    expect(
      clientAddress(
        new Headers({ 'x-forwarded-for': '6.6.6.6, 198.51.100.7', 'cf-connecting-ip': '127.0.0.1' }),
        dev,
      ),
    ).toBe('198.51.100.7');
    expect(clientAddress(new Headers({ 'cf-connecting-ip': '127.0.0.1' }), dev)).toBe('127.0.0.1');
    // npm start: no header is trusted (a client's CF-Connecting-IP reaches the Worker as sent).
    const none = { CLIENT_ADDRESS_HEADER: 'none' };
    expect(
      clientAddress(new Headers({ 'x-forwarded-for': '6.6.6.6', 'cf-connecting-ip': '7.7.7.7' }), none),
    ).toBe('local');
  });

  it('should open a new window after a minute, and keep its memory bounded', () => {
    const counter = new FailureCounter();
    const t0 = 1_000_000;
    for (let i = 0; i < 2; i++) counter.fail('a', 2, t0);
    expect(counter.check('a', 2, t0 + 1_000)).toEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      reset_sec: 59,
    });
    expect(counter.check('a', 2, t0 + UNAUTH_WINDOW_MS)).toMatchObject({ allowed: true, remaining: 2 });
    // Two addresses fit; a third forgets the oldest.
    const small = new FailureCounter(2);
    small.fail('b', 2, t0);
    small.fail('c', 2, t0);
    small.fail('d', 2, t0);
    expect(small.check('b', 2, t0).remaining).toBe(2);
    expect(small.check('c', 2, t0).remaining).toBe(1);
    expect(small.check('d', 2, t0).remaining).toBe(1);
  });

  it('should read the limit from UNAUTH_RATE_LIMIT_PER_MIN', () => {
    expect(unauthLimit({})).toBe(60);
    expect(unauthLimit({ UNAUTH_RATE_LIMIT_PER_MIN: '5' })).toBe(5);
    expect(unauthLimit({ UNAUTH_RATE_LIMIT_PER_MIN: '' })).toBe(60);
    expect(unauthLimit({ UNAUTH_RATE_LIMIT_PER_MIN: '0' })).toBe(60);
    expect(unauthLimit({ UNAUTH_RATE_LIMIT_PER_MIN: 'lots' })).toBe(60);
  });
});

describe('admin token guesses and HEAD polls (issue #12, finding 7)', () => {
  it('should count wrong admin tokens against the address like wrong API keys', async () => {
    const ip = freshIp();
    const guess = (token: string) =>
      call('/admin/keys', {
        key: null,
        headers: { 'cf-connecting-ip': ip, authorization: `Bearer ${token}` },
      });
    for (let i = 0; i < DEFAULT_UNAUTH_PER_MIN; i++) {
      const res = await guess(`guess-${i}`);
      expect(res.status).toBe(401);
      await res.body?.cancel();
    }
    const body = await expectError(await guess('guess-last'), 429, 'rate_limited');
    expect(body.error).toMatchObject({ reason: 'unauthenticated_per_minute' });
  });

  it('should charge HEAD of a status to the status bucket, not the general one', async () => {
    const res = await call('/api/status/vid_AAAAAAAAAAAAAAAAAAAAAA', {
      method: 'HEAD',
      headers: { 'cf-connecting-ip': freshIp() },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBe('600');
  });
});
