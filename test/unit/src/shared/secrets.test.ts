/**
 * Issue #34: provider credentials are checked at submission (named, never quoted), sealed at rest,
 * never echoed by the provider adapter; the lip-sync output is fetched only from allowed hosts.
 */
import { describe, expect, it } from 'vitest';
import { processOptions } from '../../../../src/api/process.js';
import { ApiError } from '../../../../src/contract/errors.js';
import { SEALED_PREFIX, seal, unseal } from '../../../../src/shared/sealed.js';
import { createElevenLabsEngine, redact } from '../../../../containers/media/engines/tts/elevenlabs.js';
import { TtsError } from '../../../../containers/media/engines/tts/errors.js';
import { outputUrlAllowed } from '../../../../containers/media/engines/lipsync/sync-api.js';
// @ts-expect-error: a plain .mjs script (no types); restartDelayMs is pure.
import { restartDelayMs } from '../../../../scripts/dev-config.mjs';
import { InflightJobs, isCrash } from '../../../../src/media/inflight-jobs.js';
import { HeldPolls, maxHeldPolls } from '../../../../src/api/held-polls.js';
import { MediaUnreachableError } from '../../../../src/media/errors.js';
import { decideRetry, UNREACHABLE_MAX_DELAY_SEC } from '../../../../src/pipeline/retry.js';

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}

const provider = (fields: Record<string, string>) =>
  processOptions({ voice_generator: '1', description: 'hello', ...fields }, false);

describe('provider fields at submission', () => {
  it.each([
    ['CR/LF', 'zq-B\r\nX-Injected: 1'],
    ['non-Latin-1', 'zq-B\u2603x'],
    ['a NUL', 'zq-B\u0000x'],
  ])('should refuse a credential with %s, naming the field and never the value', (_, value) => {
    const err = refusal(() => provider({ credential_voice_generator: value }));
    expect(err.code).toBe('invalid_field');
    expect(err.details.field).toBe('credential_voice_generator');
    expect(err.message).toContain('credential_voice_generator');
    expect(err.message).not.toContain('zq-B');
  });

  it('should accept a printable credential and refuse a voice_id that is not one path segment', () => {
    expect(provider({ credential_voice_generator: ' sk_abc-123 ' }).credential_voice_generator).toBe(
      'sk_abc-123',
    );
    for (const voice of ['..', '.', 'a/b', 'a?b', 'voice id'])
      expect(refusal(() => provider({ voice_id: voice })).details.field).toBe('voice_id');
    expect(provider({ voice_id: '21m00Tcm4TlvDq8ikWAM' }).voice_id).toBe('21m00Tcm4TlvDq8ikWAM');
    // Ignored (rules 6–7) without voice_generator 1: not checked either.
    expect(processOptions({ voice_id: '..' }, false).voice_id).toBeNull();
  });
});

describe('sealed credentials', () => {
  it('should open only with the same secret and the same job, and never hold the plain text', async () => {
    const sealed = await seal('secret-1', 'sk_live_abcdef', 'vid_A');
    expect(sealed.startsWith(SEALED_PREFIX)).toBe(true);
    expect(sealed).not.toContain('sk_live');
    expect(await unseal('secret-1', sealed, 'vid_A')).toBe('sk_live_abcdef');
    await expect(unseal('secret-2', sealed, 'vid_A')).rejects.toThrow();
    await expect(unseal('secret-1', sealed, 'vid_B')).rejects.toThrow();
    expect(await seal('secret-1', 'sk_live_abcdef', 'vid_A')).not.toBe(sealed); // a fresh IV each time
  });
});

describe('provider adapter', () => {
  it('should refuse a credential that cannot be a header before any call, without quoting it', async () => {
    let calls = 0;
    const tts = createElevenLabsEngine({
      baseUrl: 'http://127.0.0.1:9',
      fetch: (async () => {
        calls++;
        return new Response('x');
      }) as typeof fetch,
    });
    const err = await tts.synthesize({ text: 'hi', credential: 'cred-B\r\nX-Injected: 1' }).catch((e) => e);
    expect(err).toBeInstanceOf(TtsError);
    expect(err).toMatchObject({ code: 'tts_credential_invalid', status: 400 });
    expect(err.message).not.toContain('cred-B');
    await expect(tts.synthesize({ text: 'hi', credential: 'k', voiceId: '..' })).rejects.toMatchObject({
      status: 400,
    });
    expect(calls).toBe(0);
  });

  it("should mask the key in the provider's own answer", async () => {
    const tts = createElevenLabsEngine({
      baseUrl: 'http://127.0.0.1:9',
      fetch: (async () =>
        Response.json(
          { detail: { status: 'invalid_api_key', message: 'key sk_wrong_1234 is invalid' } },
          {
            status: 401,
          },
        )) as typeof fetch,
    });
    const err = await tts.synthesize({ text: 'hi', credential: 'sk_wrong_1234' }).catch((e) => e);
    expect(err).toMatchObject({ code: 'tts_provider_unauthorized' });
    expect(err.message).toContain('[credential]');
    expect(err.message).not.toContain('sk_wrong_1234');
    expect(redact('a abc b', 'ab')).toBe('a abc b'); // too short to mask safely
  });
});

describe('lip-sync output URL', () => {
  const base = 'https://api.sync.so';
  it.each([
    ['https://api.sync.so/out/1.mp4', [], true],
    ['https://cdn.example.net/1.mp4', [], true],
    ['https://cdn.example.net/1.mp4', ['.sync.so'], false],
    ['https://media.sync.so/1.mp4', ['.sync.so'], true],
    ['http://127.0.0.1:8788/health', [], false],
    ['http://169.254.169.254/latest/meta-data', [], false],
    ['http://10.1.2.3/x', [], false],
    ['http://[::1]/x', [], false],
    ['file:///etc/passwd', [], false],
    ['not a url', [], false],
  ])('%s (allowed %j) → %s', (url, hosts, ok) => {
    expect(outputUrlAllowed(url, base, hosts)).toBe(ok);
  });

  it("should allow a loopback output on the API's own host (a local fake)", () => {
    expect(outputUrlAllowed('http://127.0.0.1:9000/o.mp4', 'http://127.0.0.1:9000', [])).toBe(true);
  });
});

describe('supervisor', () => {
  it('should wait longer for each restart in a row, up to 10 s', () => {
    expect([1, 2, 3, 4, 5, 9].map(restartDelayMs)).toEqual([1000, 2000, 4000, 8000, 10000, 10000]);
  });
});

describe('production container hooks', () => {
  it('should know which jobs had work in flight when the container crashed', () => {
    const jobs = new InflightJobs();
    const a1 = jobs.enter('vid_a');
    const a2 = jobs.enter('vid_a');
    const b = jobs.enter('vid_b');
    jobs.enter(null)(); // a request of no job (health)
    a1();
    a1(); // twice: counted once
    b();
    expect(jobs.drain()).toEqual(['vid_a']);
    expect(jobs.drain()).toEqual([]);
    a2();
    expect(isCrash({ exitCode: 137, reason: 'exit' }, false)).toBe(true);
    expect(isCrash({ exitCode: 0, reason: 'runtime_signal' }, false)).toBe(true);
    expect(isCrash({ exitCode: 0, reason: 'exit' }, false)).toBe(false);
    expect(isCrash({ exitCode: 143, reason: 'exit' }, true)).toBe(false);
  });
});

describe('retry after the media service did not answer', () => {
  it('should follow the backoff but never wait more than UNREACHABLE_MAX_DELAY_SEC', () => {
    const down = new MediaUnreachableError('the media service could not be reached');
    const delays = [1, 2, 3, 4, 5].map(
      (attempt) => (decideRetry(down, attempt, () => 1) as { delaySeconds: number }).delaySeconds,
    );
    expect(delays).toEqual([5, 10, 10, 10, 10]);
    expect(UNREACHABLE_MAX_DELAY_SEC).toBe(10);
    // Any other transient failure keeps the full backoff.
    expect((decideRetry(new Error('x'), 4, () => 1) as { delaySeconds: number }).delaySeconds).toBe(40);
  });
});

describe('held long-polls per key', () => {
  it('should hold at most the limit per key, and free a place when a poll answers', () => {
    const polls = new HeldPolls();
    const a1 = polls.enter('a', 2)!;
    const a2 = polls.enter('a', 2)!;
    expect(polls.enter('a', 2)).toBeNull();
    expect(polls.enter('b', 2)).not.toBeNull(); // another key is not affected
    a1();
    a1(); // released once
    expect(polls.enter('a', 2)).not.toBeNull();
    expect(polls.enter('a', 2)).toBeNull();
    a2();
    expect(maxHeldPolls({})).toBe(20);
    expect(maxHeldPolls({ STATUS_MAX_HELD_POLLS: '3' })).toBe(3);
    expect(maxHeldPolls({ STATUS_MAX_HELD_POLLS: '0' })).toBe(20);
  });
});
