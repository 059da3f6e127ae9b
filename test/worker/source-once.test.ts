/**
 * The job's source crosses to the media container once per job: the real pipeline in workerd
 * against the real media service, through a counting proxy (test/support/media-proxy.ts) that
 * sees every byte the Worker sends.
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index.js';
import { ProcessOptions } from '../../src/contract/options.js';
import { AnalysisResult } from '../../src/contract/result.js';
import { MEDIA_HEADERS, MEDIA_ROUTES } from '../../src/contract/media-protocol.js';
import type { JobRecord, NewJob } from '../../src/jobs/state.js';
import { r2Keys } from '../../src/shared/r2-keys.js';
import { fixture } from './helpers.js';

const CLIP = 'shared/talking_head/retalking_face3.mp4';
const TENANT = 'dev_once';
const proxied = { ...env, CONTAINER_URL: `${env.FIXTURES_URL}/media-proxy` };
const stubOf = (id: string) => env.JOB.get(env.JOB.idFromName(id));

/** The routes whose request body is the job's source. */
const SOURCE_ROUTES = [
  `PUT ${MEDIA_ROUTES.jobSource}`,
  `POST ${MEDIA_ROUTES.probe}`,
  `POST ${MEDIA_ROUTES.audio}`,
  `POST ${MEDIA_ROUTES.vision}`,
];
/** The render's body is a form: the source, when it carries it, and the speech. */
const RENDER = `POST ${MEDIA_ROUTES.render}`;

/** A processing job that speaks a description: its probe comes before the speech synthesis and the render. */
const SPOKEN: Pick<NewJob, 'kind' | 'options'> = {
  kind: 'processing',
  options: ProcessOptions.parse({ speech: 'synthesized', description: 'Hello and welcome.' }),
};

/**
 * Runs a job on the clip through the proxy (by default an analysis with visual analytics); its
 * record and the proxy's counts.
 */
async function runThroughProxy(
  id: string,
  { dropSourceAfterProbe = false, kind = { kind: 'analysis', options: { visual_analytics: true } } } = {} as {
    dropSourceAfterProbe?: boolean;
    kind?: Pick<NewJob, 'kind' | 'options'>;
  },
) {
  const bytes = await fixture(CLIP);
  const key = `uploads/${id}/source`;
  await env.MEDIA.put(key, bytes);
  const job = {
    video_id: id,
    tenant: TENANT,
    audio: null,
    ...kind,
    source: { key, size: bytes.length, filename: 'retalking_face3.mp4', content_type: 'video/mp4' },
  } as NewJob;
  await stubOf(id).create(job);
  if (dropSourceAfterProbe)
    expect((await fetch(`${env.FIXTURES_URL}/media-proxy-drop/${id}`, { method: 'POST' })).status).toBe(204);
  const batch = createMessageBatch('video-api-jobs', [
    { id: `m-${id}`, timestamp: new Date(), attempts: 1, body: { video_id: id } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch as never, proxied as never);
  await getQueueResult(batch, ctx);
  const record = (await stubOf(id).get()) as JobRecord;
  const counts = await (
    await fetch(`${env.FIXTURES_URL}/media-proxy-stats/${id}`)
  ).json<{
    bytes: Record<string, number>;
    requests: Record<string, number>;
  }>();
  const sourceBytes = SOURCE_ROUTES.reduce((sum, route) => sum + (counts.bytes[route] ?? 0), 0);
  return { size: bytes.length, record, counts, sourceBytes };
}

async function expectVisualResult(id: string) {
  const stored = await env.MEDIA.get(r2Keys.result(id));
  const result = AnalysisResult.parse(await stored!.json());
  expect(result['Video Section']).toBeTruthy();
  expect(result.summary.duration_sec).toBeGreaterThan(2);
}

/** Whether the container still keeps the job's source (a request naming it). */
async function storedHere(id: string): Promise<boolean> {
  const res = await fetch(`${env.CONTAINER_URL}${MEDIA_ROUTES.probe}`, {
    method: 'POST',
    headers: {
      [MEDIA_HEADERS.jobId]: id,
      [MEDIA_HEADERS.tenantId]: TENANT,
      [MEDIA_HEADERS.storedSource]: '1',
    },
  });
  await res.body?.cancel();
  return res.status === 200;
}

describe('the source crosses to the container once per job', () => {
  it('should send the file once for an analysis job with visual analytics, and remove it when the job ends', async () => {
    const id = 'vid_sourceoncesourceonce00';
    const { size, record, counts, sourceBytes } = await runThroughProxy(id);
    expect(record.status, JSON.stringify(record)).toBe('completed');
    await expectVisualResult(id);
    // Probe and vision (and audio, when not decoded at the edge) all read it: one upload.
    expect(counts.requests[`POST ${MEDIA_ROUTES.probe}`]).toBe(1);
    expect(counts.requests[`POST ${MEDIA_ROUTES.vision}`]).toBe(1);
    expect(sourceBytes).toBe(size);
    expect(counts.requests[`PUT ${MEDIA_ROUTES.jobSource}`]).toBe(1);
    // The job's end removed the container's copy.
    expect(await storedHere(id)).toBe(false);
  });

  it('should send the file again, once, when the container lost it between steps', async () => {
    const id = 'vid_sourcelostsourcelost00';
    const { size, record, counts, sourceBytes } = await runThroughProxy(id, {
      dropSourceAfterProbe: true,
    });
    expect(record.status, JSON.stringify(record)).toBe('completed');
    await expectVisualResult(id);
    expect(counts.requests[`PUT ${MEDIA_ROUTES.jobSource}`]).toBe(2);
    expect(sourceBytes).toBe(2 * size);
  });

  it('should not send it again with the render of a processing job that probed it first', async () => {
    const id = 'vid_sourceoncespokenvideo0';
    const { size, record, counts, sourceBytes } = await runThroughProxy(id, { kind: SPOKEN });
    expect(record.status, JSON.stringify(record)).toBe('completed');
    expect(await env.MEDIA.head(r2Keys.output(id))).not.toBeNull();
    expect(sourceBytes).toBe(size);
    // The render's form carried the options and the new speech (tens of KB) only.
    expect(counts.requests[RENDER]).toBe(1);
    expect(counts.bytes[RENDER]).toBeGreaterThan(10_000);
    expect(counts.bytes[RENDER]).toBeLessThan(size);
  });
});
