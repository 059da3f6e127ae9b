/**
 * @module pipeline/plans
 * A plan per job kind: the ordered steps and how the job's pointers are set at the end.
 */
import type { JobRecord } from '../jobs/state.js';
import type { Plan } from './context.js';
import { analysisPlan } from './steps/analysis.js';
import { processingPlan } from './steps/processing.js';

/**
 * Calls `run` with the job and its kind's plan, both typed by the kind: narrowing on `kind` is
 * what lets the plans' steps read their options without casts.
 */
export const withPlan = <R>(job: JobRecord, run: <J extends JobRecord>(job: J, plan: Plan<J>) => R): R =>
  job.kind === 'analysis' ? run(job, analysisPlan) : run(job, processingPlan);
