/**
 * @module api/intake
 * The one upload sequence of the three job-creating endpoints (analyze, process, register-avatar):
 * open the gate (Idempotency-Key, job slot) → stream the form into R2 → answer a replay → the
 * route's own work (validate, resolve the source, admit, create) → consume a resumable upload it
 * used → remember the response. Any failure deletes what this request wrote and releases the gate.
 */
import type { Context } from 'hono';
import type { SourceRef } from '../contract/jobs.js';
import { bodyPaceOf } from '../storage/body-pace.js';
import { readUploadForm, type ParsedForm } from '../storage/form.js';
import { maxUploadBytes } from '../storage/upload-limit.js';
import { openGate } from './admission.js';
import type { AppEnv } from './middleware.js';
import { consumeResumable, resumableSource } from './uploads.js';

export interface IntakeSpec {
  /** The job this request creates (its slot is taken by `admit`); null for one that creates none. */
  jobId: string | null;
  /** File fields and the R2 key each is streamed to. */
  files: Record<string, string>;
  /** Accepted text fields. */
  fields: readonly string[];
}

/** What the route's work gets from the intake. */
export interface Intake {
  form: ParsedForm;
  /** The uploaded `file`, or the completed resumable upload named by `file_id` (400 when both). */
  source(): Promise<SourceRef | null>;
  /** Takes the job slot (429 when none is free): call once the request is valid, just before creating. */
  admit(): Promise<void>;
}

/** The route's work: the response body, and whether it used a resumable upload (default: when one was named). */
export type IntakeWork<T> = (intake: Intake) => Promise<{ body: T; usedResumable?: boolean }>;

export async function intake<T extends Record<string, unknown>>(
  c: Context<AppEnv>,
  spec: IntakeSpec,
  work: IntakeWork<T>,
): Promise<Response> {
  const gate = await openGate(c, spec.jobId);
  try {
    const form = await readUploadForm(c.env.MEDIA, c.req.raw, {
      ...spec,
      maxFileBytes: maxUploadBytes(c.env),
      hash: gate.hashing,
      pace: bodyPaceOf(c.env),
    });
    const replay = await gate.check(form);
    if (replay) return replay;
    let body: T;
    try {
      const done = await work({
        form,
        source: async () => (await resumableSource(c, form, 'file')) ?? form.files.file ?? null,
        admit: () => gate.admit(),
      });
      if (done.usedResumable ?? true) await consumeResumable(c, form);
      body = done.body;
    } catch (err) {
      await Promise.all(Object.values(spec.files).map((key) => c.env.MEDIA.delete(key)));
      throw err;
    }
    await gate.finish(body);
    return c.json(body);
  } catch (err) {
    await gate.release();
    throw err;
  }
}
