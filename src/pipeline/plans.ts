/**
 * @module pipeline/plans
 * A plan per job kind: the ordered steps and how the job's pointers are set at the end.
 */
import type { JobRecord } from '../jobs/state.js';
import type { Plan } from './context.js';
import { analysisPlan } from './steps/analysis.js';
import { processingPlan } from './steps/processing.js';

export const planFor = (job: JobRecord): Plan => (job.kind === 'analysis' ? analysisPlan : processingPlan);
