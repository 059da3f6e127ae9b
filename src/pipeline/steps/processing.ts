/**
 * @module pipeline/steps/processing
 * The processing plan: probe → speech synthesis → one render in the container (one decode, one
 * encode) streamed into R2 as the output MP4. Without speech to synthesize, the probe comes from
 * the render instead of before it: the source crosses to the container once, with the render,
 * whose own probe the Worker asks for (`renderProbe`) to check the file and bound its wait. The
 * job saves the probe's round trip and transfer, ≈ 0.4 s a minute of 720p. New speech in the
 * output gets caption files, of the words the render timed on the output's timeline.
 */
import type { ProcessingReport } from '../../contract/jobs.js';
import { MEDIA_HEADERS } from '../../contract/media-protocol.js';
import { RenderToggles, type ProcessOptions } from '../../contract/options.js';
import type { RenderRequest } from '../../contract/render.js';
import type { JobOf } from '../../jobs/state.js';
import type { SizedStream } from '../../media/client.js';
import { TransientError, UnrecoverableError } from '../../media/errors.js';
import { parseRenderReport, summarizeRenderReport } from '../../media/render-report.js';
import { r2Keys } from '../../shared/r2-keys.js';
import { iterate, storeResponseBody, streamToR2 } from '../../storage/r2-upload.js';
import { storeCaptions } from '../captions.js';
import type { Plan, Step, StepContext } from '../context.js';
import { withTicks } from '../ticks.js';
import { SEALED_PREFIX, unseal } from '../../shared/sealed.js';
import { probeSource, probeStep, requireVideo } from './probe.js';

type ProcessingJob = JobOf<'processing'>;

/** Synthesized speech is stored once per job, so a retried render reuses it. */
const speechStep: Step<ProcessingJob> = {
  name: 'speech',
  weight: 10,
  when: (job) => job.options.speech === 'synthesized',
  async run(ctx) {
    const key = ctx.workKey('speech.wav');
    if (await ctx.bucket.head(key)) return;
    const o = ctx.job.options;
    const res = await ctx.media.synthesize({
      generator: o.voice_generator === '1' ? 1 : 0,
      text: o.description ?? '',
      voice_id: o.voice_id,
      credential: await openCredential(ctx),
    });
    await streamToR2(ctx.bucket, key, iterate(res.body!), { contentType: res.headers.get('content-type') });
  },
};

/** The job's provider credential in plain text (sealed in its record), or null. */
async function openCredential(ctx: StepContext<ProcessingJob>): Promise<string | null> {
  const sealed = ctx.job.options.credential_voice_generator;
  if (!sealed) return null;
  // A record from before sealing (issue #34) holds the plain value.
  if (!sealed.startsWith(SEALED_PREFIX)) return sealed;
  try {
    return await unseal(ctx.env.SIGNING_SECRET ?? '', sealed, ctx.job.video_id);
  } catch {
    // The secret was rotated (or is gone) since the job was submitted: no retry brings it back.
    throw new UnrecoverableError(
      'the credential_voice_generator of this job can no longer be decrypted (the server secret changed); submit the job again',
    );
  }
}

async function speechStream(ctx: StepContext<ProcessingJob>): Promise<SizedStream | null> {
  const o = ctx.job.options;
  const key =
    o.speech === 'synthesized'
      ? ctx.workKey('speech.wav')
      : o.speech === 'supplied'
        ? ctx.job.audio?.key
        : null;
  if (!key) return null;
  const obj = await ctx.bucket.get(key);
  // Gone from storage: retrying cannot bring it back.
  if (!obj) throw new UnrecoverableError('the speech audio for this job is missing from storage');
  return { body: obj.body, size: obj.size };
}

/**
 * Pure: the container's render request for a job's options: the render toggles as the form set
 * them (nothing else of the job's options, never the credential), the spoken description as captions,
 * and new speech's words timed for the caption files.
 */
export const renderRequest = (options: ProcessOptions): RenderRequest => ({
  ...RenderToggles.parse(options),
  captions: options.speech === 'synthesized' ? options.description : null,
  speech_words: options.speech !== 'original',
});

/** A bad upload fails before any speech is synthesized for it. */
const probeFirstStep: Step<ProcessingJob> = {
  ...probeStep,
  when: (job) => speechStep.when!(job),
};

/** How often a running render's progress is asked for (a status long-poll answers a change after 1 s). */
const RENDER_PROGRESS_EVERY_MS = 2_000;

const renderStep: Step<ProcessingJob> = {
  name: 'render',
  weight: 85,
  async run(ctx) {
    const probe = probeSource(ctx, { fromRender: true }).then(requireVideo);
    // The probe's failure is the job's (the render it stops would only say less).
    const stop = new AbortController();
    probe.catch(() => stop.abort());
    const { filename, content_type } = ctx.job.source;
    const files = {
      source: async () => {
        const { body, size } = await ctx.source();
        return { body, size };
      },
      speech: () => speechStream(ctx),
    };
    const rendered = ctx.media.render(
      files,
      renderRequest(ctx.job.options),
      { filename, content_type },
      {
        duration: probe.then((p) => p.duration_sec),
        stop: stop.signal,
      },
    );
    // The render is most of the job: its encoder's progress moves the job's while we wait.
    const [probed, res] = await withTicks(
      RENDER_PROGRESS_EVERY_MS,
      async () => {
        const fraction = await ctx.media.renderProgress(ctx.job.video_id);
        if (fraction !== null) await ctx.report(fraction);
      },
      () => Promise.allSettled([probe, rendered]),
    );
    if (probed.status === 'rejected') throw probed.reason;
    if (res.status === 'rejected') throw res.reason;
    const id = ctx.job.video_id;
    const report = parseRenderReport(res.value.headers.get(MEDIA_HEADERS.renderReport));
    if (!report) {
      await res.value.body?.cancel();
      throw new TransientError('rendering the video failed: its answer carried no readable render report');
    }
    // The new speech's words are asked while the output is stored: the container keeps them a while.
    const speech = report.speech?.words ? ctx.media.renderSpeech(id) : null;
    speech?.catch(() => {}); // awaited below
    await storeResponseBody(ctx.bucket, r2Keys.output(id), res.value, 'video/mp4');
    if (speech) {
      const { words, language } = await speech;
      await storeCaptions(ctx.bucket, id, words, language);
    }
    // Kept beside the step's other work so `finish` finds it after a retry too.
    await ctx.bucket.put(ctx.workKey(REPORT_STEP), JSON.stringify(summarizeRenderReport(report)));
  },
};

const REPORT_STEP = 'render-report.json';

async function readReport(ctx: StepContext<ProcessingJob>): Promise<ProcessingReport | undefined> {
  const obj = await ctx.bucket.get(ctx.workKey(REPORT_STEP));
  return obj ? ((await obj.json()) as ProcessingReport) : undefined;
}

export const processingPlan: Plan<ProcessingJob> = {
  steps: [probeFirstStep, speechStep, renderStep],
  finish: async (ctx) => ({
    output_key: r2Keys.output(ctx.job.video_id),
    processing_report: await readReport(ctx),
  }),
};
