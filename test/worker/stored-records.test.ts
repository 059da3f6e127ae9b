/**
 * Records stored by the version before the union per status (one flat record, null where a field
 * did not apply) still read after an upgrade: jobs live 7 days. A fresh Job object reads the flat
 * record from its storage as it does at start, and the status endpoint answers it as before.
 */
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { JobObject } from '../../src/index.js';
import type { JobRecord, NewJob } from '../../src/jobs/state.js';
import { flatJobRecord, type FlatJob } from '../support/job-records.js';
import { ALICE, call, devTenant } from './helpers.js';

const stubOf = (id: string) => env.JOB.get(env.JOB.idFromName(id));

async function flatRecord(id: string, over: Partial<FlatJob>): Promise<FlatJob> {
  const job: NewJob = {
    video_id: id,
    kind: 'analysis',
    options: { visual_analytics: false },
    tenant: await devTenant(ALICE),
    source: { key: `uploads/${id}/source`, size: 1, filename: null, content_type: null },
    audio: null,
  };
  return flatJobRecord(job, Date.now() - 60_000, { updated_at: Date.now() - 1_000, ...over });
}

/** Stores `record` as the previous version did and loads it the way a starting object does. */
async function upgradeTo(id: string, record: FlatJob): Promise<JobRecord> {
  return runInDurableObject(stubOf(id), async (live: JobObject, state) => {
    await state.storage.put('job', record);
    const fresh = new JobObject(state, env);
    const loaded = () => (fresh as unknown as { record: JobRecord | null }).record;
    for (let i = 0; i < 200 && !loaded(); i++) await new Promise((r) => setTimeout(r, 5));
    (live as unknown as { record: JobRecord | null }).record = loaded();
    return loaded()!;
  });
}

const statusText = async (id: string) => {
  const res = await call(`/api/status/${id}`);
  expect(res.status).toBe(200);
  return res.text();
};

describe('flat records of the previous version', () => {
  it('should answer a failed one byte for byte as before', async () => {
    const id = 'vid_flatfailedflatfailed00';
    const now = Date.now();
    const job = await upgradeTo(
      id,
      await flatRecord(id, {
        status: 'failed',
        progress: 30,
        error_message: 'the upload is not decodable media',
        finished_at: now,
      }),
    );
    expect(job).not.toHaveProperty('stage');
    expect(job).not.toHaveProperty('result_key');
    expect(await statusText(id)).toBe(
      '{"status":"failed","progress":30,"download_url":null,"result":null,"error_message":"the upload is not decodable media"}',
    );
  });

  it('should answer a completed analysis with its stored result', async () => {
    const id = 'vid_flatdoneflatdoneflat00';
    await env.MEDIA.put(`results/${id}.json`, '{"summary":{"duration_sec":3}}');
    const job = await upgradeTo(
      id,
      await flatRecord(id, {
        status: 'completed',
        progress: 100,
        started_at: Date.now() - 30_000,
        finished_at: Date.now(),
        result_key: `results/${id}.json`,
        processing_report: null,
      }),
    );
    expect(job).toMatchObject({ status: 'completed', result_key: `results/${id}.json` });
    expect(await statusText(id)).toBe(
      '{"status":"completed","progress":100,"download_url":null,"result":{"summary":{"duration_sec":3}},"error_message":null}',
    );
  });

  it('should answer a completed processing job with its link and report', async () => {
    const id = 'vid_flatrenderflatrender00';
    const report = {
      options_applied: ['blur_background'],
      lip_sync: null,
      captions: null,
      output: { width: 640, height: 360, fps: 25, duration_sec: 3, fit: 'source' },
      notes: [],
    };
    await upgradeTo(
      id,
      await flatRecord(id, {
        kind: 'processing',
        options: { blur_background: true } as never,
        status: 'completed',
        progress: 100,
        started_at: Date.now() - 30_000,
        finished_at: Date.now(),
        output_key: `outputs/${id}/video.mp4`,
        processing_report: report as never,
      }),
    );
    const body = JSON.parse(await statusText(id));
    expect(Object.keys(body)).toEqual([
      'status',
      'progress',
      'download_url',
      'result',
      'error_message',
      'processing_report',
    ]);
    expect(body).toMatchObject({ status: 'completed', progress: 100, result: null, error_message: null });
    expect(body.download_url).toContain(`/files/outputs/${id}/video.mp4?expires=`);
    expect(body.processing_report).toEqual(report);
  });

  it('should keep running a processing one under its lease', async () => {
    const id = 'vid_flatrunningflatrunnin0';
    const job = await upgradeTo(
      id,
      await flatRecord(id, { status: 'processing', progress: 42.5, stage: 'asr', started_at: Date.now() }),
    );
    expect(job).toMatchObject({ status: 'processing', stage: 'asr', heartbeat_at: null });
    expect(await stubOf(id).heartbeat(1)).toBe(true);
    expect(await statusText(id)).toBe(
      '{"status":"processing","progress":42.5,"download_url":null,"result":null,"error_message":null}',
    );
  });
});
