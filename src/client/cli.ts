/**
 * @module client/cli
 * `video-api`: the command line of the service, built on `VideoApiClient`.
 * Exit codes: 0 ok · 2 usage error · 3 API error (HTTP or network) · 4 job failed or not found ·
 * 5 gave up waiting · 1 anything else.
 *
 * @example
 * // video-api analyze talk.mp4 --visual --wait
 * // video-api process talk.mp4 --description "Hello" --voice-generator 0 -o out.mp4
 */
import { parseArgs } from 'node:util';
import { VideoApiClient, type JobStatus, type ListJobsOptions } from './client.js';
import { listenForWebhooks } from './listen.js';
import { VideoApiError, VideoJobError, VideoWaitTimeoutError } from './errors.js';
import type { UploadProgress } from './form.js';
import { formatBytes, progressBar } from './progress-bar.js';
import { formatAnalysis } from './summary.js';

export const EXIT = { ok: 0, unexpected: 1, usage: 2, api: 3, jobFailed: 4, timeout: 5 } as const;

export const USAGE = `Usage: video-api <command> [options]

Commands:
  analyze FILE [--visual] [--language CODE] [--wait] [--json]
                                                 start an analysis (speech; --visual adds gestures, gaze;
                                                 --language de sets the spoken language, else detected)
  process FILE | --avatar ID [options] [--wait] [-o OUT]
      --description TEXT   caption/prompt (spoken with voice generator 0 or 1)
      --no-blur            keep the background sharp (blur is on by default)
      --voice-generator N  0, 1 or 2 (2 needs --audio)
      --voice-id ID        voice of generator 1
      --audio FILE         speech for the output (with --voice-generator 2)
      --lip-sync           lip-sync correction      --eye-contact   eye-contact correction
      -o, --output OUT     wait, then download the result to OUT
  register FILE                                  store a video for reuse; prints its avt_ id
  status ID [--json]                             one status poll
  download ID -o FILE                            download a completed processing job
  jobs [--status S] [--kind K] [--limit N] [--all] [--json]
                                                 the key's jobs, newest first (--all: every page)
  captions ID [--format vtt|srt] [-o FILE]       caption file of a completed job
  webhook-listen [--port N] [--count N] [--json] receive, verify and print webhook deliveries on
                                                 127.0.0.1:N (default 8790); --count: stop after N
  --webhook-url URL (analyze, process, register) a signed POST to URL when the job ends

Options: --api-key KEY (or VIDEO_API_KEY) · --url URL (or VIDEO_API_URL, default http://127.0.0.1:8787)
         --timeout SEC (waiting, default 1800) · --json (machine-readable stdout) · -h, --help
Exit codes: 0 ok, 2 usage, 3 API error, 4 job failed, 5 timed out waiting.`;

class UsageError extends Error {}

const OPTIONS = {
  'api-key': { type: 'string' },
  url: { type: 'string' },
  visual: { type: 'boolean' },
  language: { type: 'string' },
  wait: { type: 'boolean' },
  json: { type: 'boolean' },
  avatar: { type: 'string' },
  description: { type: 'string' },
  'no-blur': { type: 'boolean' },
  'voice-generator': { type: 'string' },
  'voice-id': { type: 'string' },
  'voice-credential': { type: 'string' },
  audio: { type: 'string' },
  'lip-sync': { type: 'boolean' },
  'eye-contact': { type: 'boolean' },
  output: { type: 'string', short: 'o' },
  timeout: { type: 'string' },
  'webhook-url': { type: 'string' },
  status: { type: 'string' },
  kind: { type: 'string' },
  limit: { type: 'string' },
  all: { type: 'boolean' },
  format: { type: 'string' },
  port: { type: 'string' },
  count: { type: 'string' },
  secret: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface CliIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown; isTTY?: boolean; columns?: number };
  env: Record<string, string | undefined>;
  fetch?: typeof fetch;
}

/**
 * Runs the CLI with `argv` (without `node` and the script); returns the exit code.
 * @example
 * process.exitCode = await runCli(process.argv.slice(2));
 */
export async function runCli(
  argv: string[],
  io: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env },
): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (err) {
    const say = (s: string) => io.stderr.write(`${s}\n`);
    if (err instanceof UsageError) {
      say(`video-api: ${err.message}\n\n${USAGE}`);
      return EXIT.usage;
    }
    if (err instanceof VideoApiError) {
      say(
        `video-api: ${err.code}${err.status ? ` (HTTP ${err.status})` : ''}: ${err.message}${err.field ? ` [field ${err.field}]` : ''}${err.requestId ? ` request_id=${err.requestId}` : ''}`,
      );
      return EXIT.api;
    }
    if (err instanceof VideoJobError) {
      say(
        `video-api: job ${err.videoId} ${err.status === 'failed' ? 'failed' : 'not found'}: ${err.message}`,
      );
      return EXIT.jobFailed;
    }
    if (err instanceof VideoWaitTimeoutError) {
      say(`video-api: ${err.message}; check later with: video-api status ${err.videoId}`);
      return EXIT.timeout;
    }
    say(`video-api: ${(err as Error)?.message ?? err}`);
    return EXIT.unexpected;
  }
}

async function dispatch(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values: o, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (o.help || !command) {
    io.stdout.write(`${USAGE}\n`);
    return o.help ? EXIT.ok : EXIT.usage;
  }
  const apiKey = o['api-key'] ?? io.env.VIDEO_API_KEY;
  if (!apiKey) throw new UsageError('an API key is required: --api-key KEY or VIDEO_API_KEY');
  const client = new VideoApiClient({
    baseUrl: o.url ?? io.env.VIDEO_API_URL ?? 'http://127.0.0.1:8787',
    apiKey,
    fetch: io.fetch,
  });
  const timeoutSec = o.timeout === undefined ? 1800 : Number(o.timeout);
  if (!(timeoutSec > 0)) throw new UsageError('--timeout must be a positive number of seconds');
  const out = (s: string) => io.stdout.write(`${s}\n`);
  const json = (v: unknown) => out(JSON.stringify(v, null, 2));
  const one = (what: string) => {
    if (rest.length !== 1) throw new UsageError(`${command} needs exactly one ${what}`);
    return rest[0];
  };
  const uploadBar = () => {
    const bar = progressBar('upload', { stream: io.stderr });
    return {
      bar,
      onUploadProgress: ({ loaded, total }: UploadProgress) =>
        bar.update(total ? (loaded / total) * 100 : 0, `${formatBytes(loaded)} of ${formatBytes(total)}`),
    };
  };
  const wait = async (videoId: string): Promise<JobStatus> => {
    const bar = progressBar('job', { stream: io.stderr });
    const done = await client.waitForCompletion(videoId, {
      timeoutMs: timeoutSec * 1000,
      onProgress: (s) => bar.update(s.progress, s.status),
    });
    bar.done('completed');
    return done;
  };

  switch (command) {
    case 'analyze': {
      const file = one('FILE');
      const { bar, onUploadProgress } = uploadBar();
      const created = await client.analyzeVideo(file, {
        visualAnalytics: !!o.visual,
        language: o.language,
        onUploadProgress,
        webhookUrl: o['webhook-url'],
      });
      bar.done(`uploaded → ${created.video_id}`);
      if (!o.wait) {
        if (o.json) json(created);
        else out(created.video_id);
        return EXIT.ok;
      }
      const done = await wait(created.video_id);
      if (o.json) json({ video_id: created.video_id, ...done });
      else out(formatAnalysis(done.result));
      return EXIT.ok;
    }
    case 'process': {
      if (rest.length > 1 || (rest.length === 0 && !o.avatar))
        throw new UsageError('process needs FILE or --avatar ID');
      let voiceGenerator: '0' | '1' | '2' | undefined;
      if (o['voice-generator'] !== undefined) {
        if (!['0', '1', '2'].includes(o['voice-generator']))
          throw new UsageError('--voice-generator must be 0, 1 or 2');
        voiceGenerator = o['voice-generator'] as '0' | '1' | '2';
      }
      const { bar, onUploadProgress } = uploadBar();
      const created = await client.processVideo({
        file: rest[0],
        avatarId: o.avatar,
        description: o.description,
        blurBackground: o['no-blur'] ? false : undefined,
        voiceGenerator,
        voiceId: o['voice-id'],
        credentialVoiceGenerator: o['voice-credential'],
        audio: o.audio,
        lipSyncCorrection: o['lip-sync'] || undefined,
        eyeContactCorrection: o['eye-contact'] || undefined,
        onUploadProgress,
        webhookUrl: o['webhook-url'],
      });
      bar.done(`uploaded → ${created.video_id}`);
      if (!o.wait && !o.output) {
        if (o.json) json(created);
        else out(created.video_id);
        return EXIT.ok;
      }
      const done = await wait(created.video_id);
      if (o.output) await download(client, created.video_id, o.output, io);
      if (o.json) json({ video_id: created.video_id, ...done, output: o.output ?? null });
      else {
        // What was asked but not applied goes to stderr: stdout stays the path or link alone.
        const voice = done.processing_report?.voice;
        if (voice) io.stderr.write(`voice: ${voice.voice_id} (${voice.engine})\n`);
        for (const note of done.processing_report?.notes ?? []) io.stderr.write(`note: ${note}\n`);
        out(o.output ?? done.download_url ?? '');
      }
      return EXIT.ok;
    }
    case 'register': {
      const file = one('FILE');
      const { bar, onUploadProgress } = uploadBar();
      const created = await client.registerAvatar(file, { onUploadProgress, webhookUrl: o['webhook-url'] });
      bar.done('registered');
      if (o.json) json(created);
      else out(created.video_id);
      return EXIT.ok;
    }
    case 'status': {
      const id = one('ID');
      const s = await client.getStatus(id);
      if (o.json) {
        json(s);
      } else {
        out(`${id}  ${s.status}  ${s.progress.toFixed(1)}%`);
        if (s.error_message) out(`error: ${s.error_message}`);
        if (s.download_url) out(`download: ${s.download_url}`);
        if (s.processing_report) {
          out(`applied: ${s.processing_report.options_applied.join(', ') || 'none'}`);
          if (s.processing_report.voice)
            out(`voice: ${s.processing_report.voice.voice_id} (${s.processing_report.voice.engine})`);
          for (const note of s.processing_report.notes) out(`note: ${note}`);
        }
        if (s.result) out(formatAnalysis(s.result));
      }
      return s.status === 'failed' || s.status === 'not_found' ? EXIT.jobFailed : EXIT.ok;
    }
    case 'download': {
      const id = one('ID');
      if (!o.output) throw new UsageError('download needs -o FILE');
      await download(client, id, o.output, io);
      out(o.output);
      return EXIT.ok;
    }
    case 'jobs': {
      const pages = client.listJobs({
        status: o.status as ListJobsOptions['status'],
        kind: o.kind as ListJobsOptions['kind'],
        limit: o.limit === undefined ? undefined : Number(o.limit),
      });
      for await (const page of pages) {
        for (const job of page.data)
          out(
            o.json
              ? JSON.stringify(job)
              : `${job.video_id}  ${job.kind.padEnd(10)}  ${job.status.padEnd(10)}  ${job.progress.toFixed(1).padStart(5)}%  ${job.created_at}`,
          );
        if (!o.all) {
          if (page.next_cursor && !o.json) io.stderr.write('(more: --all)\n');
          break;
        }
      }
      return EXIT.ok;
    }
    case 'captions': {
      const id = one('ID');
      const format = o.format ?? 'vtt';
      if (format !== 'vtt' && format !== 'srt') throw new UsageError('--format must be vtt or srt');
      const text = await client.captions(id, format);
      if (o.output) {
        const { writeFile } = await import('node:fs/promises');
        await writeFile(o.output, text);
        out(o.output);
      } else io.stdout.write(text);
      return EXIT.ok;
    }
    case 'webhook-listen': {
      const port = o.port === undefined ? 8790 : Number(o.port);
      const count = o.count === undefined ? Infinity : Number(o.count);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be 0–65535');
      if (!(count > 0)) throw new UsageError('--count must be a positive number');
      const secret = o.secret ?? (await client.webhookSecret()).secret;
      let seen = 0;
      let stop!: () => void;
      const stopped = new Promise<void>((resolve) => (stop = resolve));
      const listener = await listenForWebhooks(
        port,
        secret,
        ({ id, payload }) => {
          out(
            o.json
              ? JSON.stringify({ webhook_id: id, ...payload })
              : `${payload.timestamp}  ${payload.type}  ${payload.data.video_id}  ${payload.data.status ?? ''}  (${id})`,
          );
          if (++seen >= count) stop();
        },
        (why) => io.stderr.write(`rejected a delivery: ${why}\n`),
      );
      io.stderr.write(`listening on ${listener.url} (send webhooks there with --webhook-url)\n`);
      process.once('SIGINT', stop);
      await stopped;
      await listener.close();
      return EXIT.ok;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

async function download(client: VideoApiClient, id: string, path: string, io: CliIo) {
  const bar = progressBar('download', { stream: io.stderr });
  const { bytes } = await client.download(id, path, {
    onProgress: ({ loaded, total }) => bar.update(total ? (loaded / total) * 100 : 0, formatBytes(loaded)),
  });
  bar.done(`${formatBytes(bytes)} → ${path}`);
}

// Run when executed directly (`tsx src/client/cli.ts …`); bin.mjs calls runCli itself.
if (/[\\/]client[\\/]cli\.ts$/.test(process.argv[1] ?? '')) {
  runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
