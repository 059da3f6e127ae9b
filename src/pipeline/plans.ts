/**
 * @module pipeline/plans
 * A plan per job kind: the ordered steps and how the job's pointers are set at the end.
 */
import type { CompletionPointers, JobRecord } from '../jobs/state.js';
import type { Step, StepContext } from './context.js';
import { analysisPlan } from './steps/analysis.js';
import { processingPlan } from './steps/processing.js';

export interface Plan {
  steps: Step[];
  finish(ctx: StepContext): Promise<CompletionPointers>;
}

export const planFor = (job: JobRecord): Plan => (job.kind === 'analysis' ? analysisPlan : processingPlan);
