/**
 * @module containers/media/server/routes
 * The container's own routes: health, probe and audio extraction, and stopping a job's work.
 */
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import {
  MAX_AUDIO_STREAM_INDEX,
  MEDIA_HEADERS,
  MEDIA_ROUTES,
  PCM_CONTENT_TYPE,
  PCM_FORMAT,
} from '../../../src/contract/media-protocol.js';
import { errorBody } from '../core/errors.js';
import { channelMixFilter, probeFile, spawnFfmpeg, type FfmpegError } from '../core/ffmpeg.js';
import { mediaLimitsFrom, plainMediaError } from '../core/media-limits.js';
import { probeAnswer } from '../core/probe-answer.js';
import { waitingJobs } from './admission.js';
import { abortJob, runningJobs } from '../core/work-scope.js';
import { forgetRenderSpeech } from '../engines/render/render-speech.js';
import { hintsFrom, rawPcmInputArgs, requestInput } from '../core/input.js';
import { checkJobId, removeJobSources, storeJobSource } from '../core/job-sources.js';

/** `x-audio-stream`: a whole number in 0..MAX_AUDIO_STREAM_INDEX, else 0 (the first audio stream). */
function audioStreamIndex(header: string | undefined): number {
  const index = /^\d{1,2}$/.test(header ?? '') ? Number(header) : 0;
  return index <= MAX_AUDIO_STREAM_INDEX ? index : 0;
}

export const coreRoutes = new Hono()
  .get(MEDIA_ROUTES.health, (c) => c.json({ ok: true }))
  .get(MEDIA_ROUTES.ping, (c) => c.text('ok'))
  // The end of a job (DELETE of it in the API, or its last step done): stop every running piece of
  // its work here (its processes are killed), forget the words of its speech a render kept, and
  // remove its stored source.
  .delete(MEDIA_ROUTES.job, async (c) => {
    const id = c.req.param('id');
    forgetRenderSpeech(id);
    const aborted = abortJob(id);
    await removeJobSources(id);
    return c.json({ aborted });
  })
  // The job's source, kept for its later requests (`x-stored-source: 1`): the file crosses once.
  .put(MEDIA_ROUTES.jobSource, async (c) => {
    const maxBytes = Number(c.req.header(MEDIA_HEADERS.maxSourceBytes));
    const stored = await storeJobSource({
      jobId: checkJobId(c.req.param('id')),
      tenant: c.req.header(MEDIA_HEADERS.tenantId) ?? null,
      body: c.req.raw.body,
      maxBytes: maxBytes > 0 ? maxBytes : undefined,
    });
    return c.json(stored, 201);
  })
  // `running`: jobs with work here (waiting requests included); `waiting`: jobs whose request waits its key's turn.
  .get(MEDIA_ROUTES.jobs, (c) => c.json({ running: runningJobs(), waiting: waitingJobs() }))
  .post(MEDIA_ROUTES.probe, async function probe(c) {
    await using input = await requestInput(c.req.raw);
    if (input.bytes === 0) return c.json(errorBody('empty_input', 'the file is empty'), 400);
    const raw = rawPcmInputArgs(hintsFrom(c.req.raw.headers));
    const answer = await probeAnswer(
      probeFile(input.path, undefined, raw),
      mediaLimitsFrom(c.req.raw.headers),
    );
    return c.json(answer.body, answer.status);
  })
  .post(MEDIA_ROUTES.audio, async function extractAudio(c) {
    const input = await requestInput(c.req.raw);
    const raw = rawPcmInputArgs(hintsFrom(c.req.raw.headers));
    const proc = spawnFfmpeg([
      ...raw,
      '-i',
      input.path,
      '-vn',
      '-map',
      `0:a:${audioStreamIndex(c.req.header(MEDIA_HEADERS.audioStream))}`,
      '-af',
      channelMixFilter(c.req.header(MEDIA_HEADERS.audioMix) === 'side' ? 'side' : 'mid'),
      '-ac',
      String(PCM_FORMAT.channels),
      '-ar',
      String(PCM_FORMAT.sampleRateHz),
      '-f',
      PCM_FORMAT.encoding,
      'pipe:1',
    ]);
    proc.child.stdin.end();
    const cleanup = () => {
      proc.dispose();
      void input[Symbol.asyncDispose]();
    };
    proc.done.then(cleanup, cleanup);
    // Wait for the first bytes or the failure, so errors still become a JSON status.
    const first = await new Promise<Buffer | null>((resolve) => {
      proc.child.stdout.once('readable', () => resolve(null));
      proc.done.catch(() => resolve(null));
    });
    void first;
    if (proc.child.exitCode !== null && proc.child.exitCode !== 0) {
      const err = await proc.done.catch((e: FfmpegError) => e);
      return c.json(
        errorBody('audio_unreadable', `could not extract audio: ${plainMediaError(err, 'the audio')}`),
        422,
      );
    }
    return new Response(Readable.toWeb(proc.child.stdout) as unknown as ReadableStream, {
      headers: { 'content-type': PCM_CONTENT_TYPE },
    });
  });
