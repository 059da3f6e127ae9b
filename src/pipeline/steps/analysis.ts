/**
 * @module pipeline/steps/analysis
 * The analysis plan: probe → (audio → VAD → (ASR ∥ prosody) ∥ vision) → result JSON in R2.
 * Every number of the result comes from the pure functions of src/analytics.
 */
import { analyzeDelivery } from '../../analytics/delivery/index.js';
import { languageWarnings } from '../../analytics/speech/languages.js';
import { analyzeVisual, visualWarnings } from '../../analytics/visual/index.js';
import type { AnalysisResult, SpeechSection } from '../../contract/result.js';
import { cutShortNote } from '../../contract/media.js';
import type { JobOf } from '../../jobs/state.js';
import { r2Keys } from '../../shared/r2-keys.js';
import { storeCaptions } from '../captions.js';
import type { Plan, Step, StepContext } from '../context.js';
import { concurrentSteps } from '../concurrent.js';
import { audioStep, storedAudio } from './audio.js';
import { audioChoiceWarning } from './audio-choice.js';
import { probeSource, probeStep } from './probe.js';
import {
  asrStep,
  prosody,
  prosodyStep,
  quietRecordingWarning,
  speechSegments,
  transcript,
  vadStep,
} from './speech.js';
import { frameObservations, visionStep } from './visual.js';
import { speechEvents } from './events.js';

/**
 * The speech analytics with their language models (wink-nlp's English model, the compromise
 * taggers of German, French and Spanish, VADER: megabytes of JavaScript), loaded by the first
 * analysis result instead of at every start of the Worker's isolate: nothing else needs them.
 * The other modules of the Worker import the light parts of analytics/speech directly.
 */
export const speechAnalytics = () => import('../../analytics/speech/analyze.js');

export async function buildResult(ctx: StepContext<JobOf<'analysis'>>): Promise<AnalysisResult> {
  const { analyzeSpeech } = await speechAnalytics();
  const probe = await probeSource(ctx);
  const warnings: string[] = [];
  const cutShort = cutShortNote(probe, 'the analysis');
  if (cutShort) warnings.push(cutShort);
  let speech: SpeechSection;
  let speechEngine: AnalysisResult['speech_engine'];
  let language: Pick<AnalysisResult, 'language' | 'language_probability'> = {};
  let deliveryInput: Parameters<typeof analyzeDelivery>[0] = { words: [] };
  if (probe.audio) {
    const asr = await transcript(ctx);
    const segments = await speechSegments(ctx);
    const track = await prosody(ctx);
    language = {
      language: asr.words.length > 0 ? (asr.language ?? 'en') : null,
      language_probability: asr.words.length > 0 ? (asr.language_probability ?? null) : null,
    };
    speech = analyzeSpeech({
      words: asr.words,
      speech_segments: segments,
      duration_sec: probe.duration_sec,
      prosody: track,
      language: language.language,
    });
    deliveryInput = {
      words: asr.words,
      speech_segments: segments,
      prosody: track,
      language: language.language,
    };
    speechEngine = { engine: asr.engine, model: asr.model ?? null };
    warnings.push(...(asr.warnings ?? []));
    const stored = await storedAudio(ctx);
    const otherAudio = audioChoiceWarning(stored);
    if (otherAudio) warnings.push(otherAudio);
    const quiet = quietRecordingWarning(stored.loud_end_dbfs);
    if (quiet) warnings.push(quiet);
    if (asr.words.length === 0) warnings.push('no speech was recognised in the audio');
    else warnings.push(...languageWarnings(language.language));
  } else {
    speech = analyzeSpeech({ words: [], speech_segments: [], duration_sec: probe.duration_sec });
    warnings.push('the file has no audio stream: speech analytics are empty');
  }
  let result: AnalysisResult = speechEngine
    ? { ...speech, speech_engine: speechEngine, ...language }
    : { ...speech };
  const frames = await frameObservations(ctx);
  if (frames) {
    const visual = analyzeVisual(frames, speechEvents(speech));
    result = { ...result, ...visual };
    deliveryInput = { ...deliveryInput, visual: visual.merged_visual_time_series };
    warnings.push(...visualWarnings(frames));
  } else if (ctx.job.options.visual_analytics) {
    warnings.push('the file has no video stream: visual analytics were skipped');
  }
  result = { ...result, delivery: analyzeDelivery(deliveryInput) };
  return warnings.length ? { ...result, warnings } : result;
}

const resultStep: Step<JobOf<'analysis'>> = {
  name: 'result',
  weight: 5,
  async run(ctx) {
    const result = await buildResult(ctx);
    await storeTranscriptCaptions(ctx);
    await ctx.bucket.put(r2Keys.result(ctx.job.video_id), JSON.stringify(result), {
      httpMetadata: { contentType: 'application/json' },
    });
  },
};

/** The transcript's caption files (`GET /api/jobs/{id}/captions.vtt|srt`), when words were recognised. */
async function storeTranscriptCaptions(ctx: StepContext<JobOf<'analysis'>>): Promise<void> {
  if (!(await probeSource(ctx)).audio) return;
  const asr = await transcript(ctx);
  // In the transcript's own language.
  await storeCaptions(ctx.bucket, ctx.job.video_id, asr.words, asr.language ?? 'en');
}

/**
 * Prosody needs only the audio, and its CPU is this isolate's while speech recognition's is the
 * container's: it runs while the Worker waits for the transcript, not after it. (Beside the VAD it
 * would only delay it: both compute in this isolate.)
 */
const asrAndProsody = concurrentSteps<JobOf<'analysis'>>('asr+prosody', [[asrStep], [prosodyStep]]);

/**
 * Speech and vision need only the probe, not each other: they run side by side, so a job takes
 * its longer lane's time, not their sum. A speech-only job is the speech lane alone.
 */
const speechAndVisionLanes = concurrentSteps<JobOf<'analysis'>>('speech+vision', [
  [audioStep, vadStep, asrAndProsody],
  [visionStep],
]);

/**
 * The lanes, with the speech analytics loading beside them: their first load in an isolate
 * (about a second of module evaluation) then happens while the lanes wait on the media
 * container, not after, in the result step.
 */
export const speechAndVisionStep: Step<JobOf<'analysis'>> = {
  ...speechAndVisionLanes,
  run(ctx) {
    speechAnalytics().catch(() => {}); // a failed load fails the result step, which awaits it
    return speechAndVisionLanes.run(ctx);
  },
};

export const analysisPlan: Plan<JobOf<'analysis'>> = {
  steps: [probeStep, speechAndVisionStep, resultStep],
  finish: async (ctx) => ({ result_key: r2Keys.result(ctx.job.video_id) }),
};
