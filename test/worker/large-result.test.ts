import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/shared/digest.js';
import { ALICE, status } from './helpers.js';

describe('large results', () => {
  it('should serve a result larger than a Durable Object value (2 MB) from R2', async () => {
    const id = 'vid_largeresultlargeresult';
    const tenant = `dev_${(await sha256Hex(ALICE)).slice(0, 16)}`;
    const words = Array.from({ length: 60_000 }, (_, i) => ({
      time: i * 0.1,
      word: `word${i}`,
      compound: 0.5,
    }));
    const result = { 'Audio Section': 'x', transcript: 'w '.repeat(500_000), sentiment_words: words };
    const json = JSON.stringify(result);
    expect(json.length).toBeGreaterThan(3 * 1024 * 1024);
    await env.MEDIA.put(`results/${id}.json`, json);
    const stub = env.JOB.get(env.JOB.idFromName(id));
    await stub.create({
      video_id: id,
      kind: 'analysis',
      tenant,
      audio: null,
      options: { visual_analytics: false },
      source: { key: `uploads/${id}/source`, size: 1, filename: null, content_type: null },
    });
    const claimed = await stub.claim();
    expect(claimed.ok).toBe(true);
    await stub.complete((claimed as { job: { lease: number } }).job.lease, {
      result_key: `results/${id}.json`,
    });
    const s = await status(id, ALICE);
    expect(s.status).toBe('completed');
    expect(s.progress).toBe(100);
    expect((s.result as typeof result).sentiment_words).toHaveLength(60_000);
    expect((s.result as typeof result).transcript.length).toBe(1_000_000);
  });
});
