import { env, SELF } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { warmUpIsolate } from '../../src/pipeline/warm-up.js';

// EDGE_AUDIO_TESTS=0 binds EDGE_AUDIO to a stub that fails every call (vitest.config.ts).
const edgeAudioBound = (env as { EDGE_AUDIO_TESTS?: string }).EDGE_AUDIO_TESTS !== '0';

describe('warm-up of the isolate (the first /healthz)', () => {
  it('should load the speech analytics, the VAD and the edge decoder once, and say what failed', async () => {
    const warn = vi.spyOn(console, 'warn');
    try {
      const first = warmUpIsolate(env);
      expect(warmUpIsolate(env)).toBe(first);
      await expect(first).resolves.toBeUndefined();
      const failures = warn.mock.calls
        .map((args) => String(args[0]))
        .filter((l) => l.includes('warm_up_failed'));
      if (edgeAudioBound) expect(failures).toEqual([]);
      else expect(failures.join('\n')).not.toMatch(/speech_analytics|vad/);
    } finally {
      warn.mockRestore();
    }
  });

  it('should answer the health check at once, whatever the warm-up does', async () => {
    const res = await SELF.fetch('https://api.test/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });
});
