/**
 * @module pipeline/steps/analysis
 * The analysis plan: probe → (audio → VAD → ASR → prosody ∥ vision) → result JSON in R2.
 * Every number of the result comes from the pure functions of src/analytics.
 */
import { analyzeSpeech, buildCues, toSrt, toWebVtt } from '../../analytics/speech/index.js';
import { TRANSCRIPT_LANGUAGE } from '../../contract/media.js';
import { analyzeVisual } from '../../analytics/visual/index.js';
import type { AnalysisResult, SpeechSection } from '../../contract/result.js';
import type { JobOf } from '../../jobs/state.js';
import { r2Keys } from '../../shared/r2-keys.js';
import type { Plan, Step, StepContext } from '../context.js';
import { concurrentSteps } from '../concurrent.js';
import { audioStep } from './audio.js';
import { probeSource, probeStep } from './probe.js';
import { asrStep, prosody, prosodyStep, speechSegments, transcript, vadStep } from './speech.js';
import { frameObservations, visionStep } from './visual.js';
import { speechEvents } from './events.js';

export async function buildResult(ctx: StepContext<JobOf<'analysis'>>): Promise<AnalysisResult> {
  const probe = await probeSource(ctx);
  const warnings: string[] = [];
  let speech: SpeechSection;
  let speechEngine: AnalysisResult['speech_engine'];
  if (probe.audio) {
    const asr = await transcript(ctx);
    speech = analyzeSpeech({
      words: asr.words,
      speech_segments: await speechSegments(ctx),
      duration_sec: probe.duration_sec,
      prosody: await prosody(ctx),
    });
    speechEngine = { engine: asr.engine, model: asr.model ?? null };
    warnings.push(...(asr.warnings ?? []));
    if (asr.words.length === 0) warnings.push('no speech was recognised in the audio');
  } else {
    speech = analyzeSpeech({ words: [], speech_segments: [], duration_sec: probe.duration_sec });
    warnings.push('the file has no audio stream: speech analytics are empty');
  }
  let result: AnalysisResult = speechEngine ? { ...speech, speech_engine: speechEngine } : { ...speech };
  const frames = await frameObservations(ctx);
  if (frames) {
    result = { ...result, ...analyzeVisual(frames, speechEvents(speech)) };
    if (frames.length > 0 && frames.every((f) => !f.pose && !f.face))
      warnings.push('no person was detected in the video');
  } else if (ctx.job.options.visual_analytics) {
    warnings.push('the file has no video stream: visual analytics were skipped');
  }
  return warnings.length ? { ...result, warnings } : result;
}

const resultStep: Step<JobOf<'analysis'>> = {
  name: 'result',
  weight: 5,
  async run(ctx) {
    const result = await buildResult(ctx);
    await storeCaptions(ctx);
    await ctx.bucket.put(r2Keys.result(ctx.job.video_id), JSON.stringify(result), {
      httpMetadata: { contentType: 'application/json' },
    });
  },
};

/** The transcript's caption files (`GET /api/jobs/{id}/captions.vtt|srt`), when words were recognised. */
async function storeCaptions(ctx: StepContext<JobOf<'analysis'>>): Promise<void> {
  if (!(await probeSource(ctx)).audio) return;
  const cues = buildCues((await transcript(ctx)).words);
  if (cues.length === 0) return;
  const id = ctx.job.video_id;
  await ctx.bucket.put(r2Keys.captions(id, 'vtt'), toWebVtt(cues, TRANSCRIPT_LANGUAGE), {
    httpMetadata: { contentType: 'text/vtt; charset=utf-8', contentLanguage: TRANSCRIPT_LANGUAGE },
  });
  await ctx.bucket.put(r2Keys.captions(id, 'srt'), toSrt(cues), {
    httpMetadata: {
      contentType: 'application/x-subrip; charset=utf-8',
      contentLanguage: TRANSCRIPT_LANGUAGE,
    },
  });
}

/**
 * Speech and vision need only the probe, not each other: they run side by side (measured on the
 * 60 s 720p gate clip: README "Speed"). A speech-only job is the speech lane alone.
 */
export const speechAndVisionStep = concurrentSteps('speech+vision', [
  [audioStep, vadStep, asrStep, prosodyStep],
  [visionStep],
]);

export const analysisPlan: Plan<JobOf<'analysis'>> = {
  steps: [probeStep, speechAndVisionStep, resultStep],
  finish: async (ctx) => ({ result_key: r2Keys.result(ctx.job.video_id) }),
};
