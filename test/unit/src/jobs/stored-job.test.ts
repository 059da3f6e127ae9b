import { describe, expect, it } from 'vitest';
import * as s from '../../../../src/jobs/state.js';
import { readJobRecord } from '../../../../src/jobs/stored-job.js';
import { analysisJob, flatJobRecord, processingJob, type FlatJob } from '../../../support/job-records.js';

const init = analysisJob;
const processingInit = processingJob;
const flat = (over: Partial<FlatJob>) => flatJobRecord(init, 10, { updated_at: 20, ...over });

describe('stored records', () => {
  it('should read a record of this version as itself', () => {
    const job = s.complete(s.claim(s.createJob(init, 0), 1), { result_key: 'results/vid_x.json' }, 2);
    expect(readJobRecord(job)).toEqual(job);
    const failed = s.fail(
      s.createJob({ ...init, webhook: { url: 'https://h.example/x', origin: 'o' } }, 0),
      'e',
      1,
    );
    expect(readJobRecord(failed)).toEqual(failed);
    expect(readJobRecord(undefined)).toBeNull();
  });

  it('should read the flat records of the previous version, status by status', () => {
    expect(readJobRecord(flat({ status: 'pending' }))).toEqual({
      ...init,
      status: 'pending',
      progress: 0,
      created_at: 10,
      updated_at: 20,
      lease: 1,
      redispatches: 0,
      last_error: null,
    });
    expect(
      readJobRecord(
        flat({ status: 'processing', progress: 42, stage: 'asr', started_at: 12, heartbeat_at: 19 }),
      ),
    ).toMatchObject({ status: 'processing', progress: 42, stage: 'asr', started_at: 12, heartbeat_at: 19 });
    const failed = readJobRecord(
      flat({
        status: 'failed',
        progress: 30,
        error_message: 'bad input',
        started_at: 12,
        finished_at: 25,
        last_error: 'e',
      }),
    );
    expect(failed).toEqual({
      ...init,
      status: 'failed',
      progress: 30,
      created_at: 10,
      updated_at: 20,
      lease: 1,
      redispatches: 0,
      last_error: 'e',
      started_at: 12,
      finished_at: 25,
      error_message: 'bad input',
    });
    const done = readJobRecord(
      flat({
        status: 'completed',
        progress: 100,
        result_key: 'results/vid_x.json',
        started_at: 12,
        finished_at: 25,
        processing_report: null,
      }),
    );
    expect(done).toMatchObject({ status: 'completed', result_key: 'results/vid_x.json', finished_at: 25 });
    expect(done).not.toHaveProperty('output_key');
    expect(done).not.toHaveProperty('processing_report');
  });

  it('should read a flat completed processing record with or without its report', () => {
    const report = {
      options_applied: [],
      lip_sync: null,
      captions: null,
      output: { width: 640, height: 360, fps: 25, duration_sec: 3, fit: 'source' as const },
      notes: [],
    };
    const base = {
      ...processingInit,
      status: 'completed' as const,
      progress: 100,
      output_key: 'outputs/vid_p/out.mp4',
      finished_at: 25,
    };
    expect(readJobRecord(flat({ ...base, processing_report: report }))).toMatchObject({
      kind: 'processing',
      output_key: 'outputs/vid_p/out.mp4',
      processing_report: report,
    });
    // Records older still lack the report.
    expect(readJobRecord(flat(base))).toMatchObject({ processing_report: null });
  });

  it('should read a flat completed record without its output as failed', () => {
    expect(readJobRecord(flat({ status: 'completed', progress: 100, finished_at: 25 }))).toMatchObject({
      status: 'failed',
      finished_at: 25,
      error_message: 'the job completed but its output is not recorded',
    });
  });

  it('should answer a status poll of a flat record byte for byte as before', () => {
    const old = flat({ status: 'failed', progress: 30, error_message: 'bad input', finished_at: 25 });
    expect(JSON.stringify(s.statusFields(readJobRecord(old)!))).toBe(
      '{"status":"failed","progress":30,"download_url":null,"result":null,"error_message":"bad input"}',
    );
    const running = flat({ status: 'processing', progress: 42.5, stage: 'asr', started_at: 12 });
    expect(JSON.stringify(s.statusFields(readJobRecord(running)!))).toBe(
      '{"status":"processing","progress":42.5,"download_url":null,"result":null,"error_message":null}',
    );
  });
});
