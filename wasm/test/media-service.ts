/**
 * @module
 * Node-side helper for the workerd tests, bound as the `MEDIA` service. Tests inside
 * workerd cannot read files or run processes, and workerd's clock stands still while
 * code runs, so this side does those three things:
 * - `GET /file/<path>`: a clip from `../shared/media` (or one generated with native ffmpeg);
 * - `GET /native/<path>`: native ffmpeg's decode of that clip with the same arguments as
 *   `wasm/ffmpeg` (s16le, 16 kHz, mono), the reference the wasm decode is compared with;
 * - `GET /clock`: `{ nowMs, cpuMs, rssBytes }`: wall time, and the CPU time and resident
 *   memory of the workerd processes (CPU time is the honest number on a busy machine).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SHARED_MEDIA_DIR = resolve(import.meta.dirname, '../../../shared/media');
const GENERATED_DIR = join(tmpdir(), 'wasm-edge-fixtures');

/** Clips made on demand with ffmpeg's lavfi sources (name → ffmpeg input arguments). */
const GENERATED: Record<string, string[]> = {
  // A video with no audio stream at all.
  'gen/video_no_audio.mp4': [
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=160x120:rate=10:duration=3',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
  ],
  // A 4 s video whose audio (a 2 s tone) starts 2 s in.
  'gen/late_audio.mp4': [
    ...['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10:duration=4'],
    ...['-itsoffset', '2', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
  ],
  // A first audio track of digital silence, jfk.wav on the second.
  'gen/jfk_second_track.mka': [
    ...['-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=stereo', '-i', join(SHARED_MEDIA_DIR, 'speech/jfk.wav')],
    ...['-map', '0:a', '-map', '1:a', '-shortest', '-c:a', 'aac'],
  ],
  // jfk.wav in stereo with the right channel phase-inverted.
  'gen/jfk_antiphase.wav': [
    '-i',
    join(SHARED_MEDIA_DIR, 'speech/jfk.wav'),
    '-af',
    'pan=stereo|c0=c0|c1=-1*c0',
  ],
  // 10 s of digital silence.
  'gen/silence_10s.wav': ['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '10', '-c:a', 'pcm_s16le'],
  // 10 s and 60 s talking-head clips (H.264 + AAC) for the timing numbers: the real
  // clip looped, so the audio is speech.
  'gen/th_10s.mp4': [
    '-stream_loop',
    '-1',
    '-i',
    join(SHARED_MEDIA_DIR, 'talking_head/retalking_face2.mp4'),
    '-t',
    '10',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-c:a',
    'aac',
  ],
  'gen/th_60s.mp4': [
    '-stream_loop',
    '-1',
    '-i',
    join(SHARED_MEDIA_DIR, 'talking_head/retalking_face2.mp4'),
    '-t',
    '60',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-c:a',
    'aac',
  ],
  // 60 s of speech at 16 kHz mono for the VAD timing: jfk.wav looped.
  // Memory checks: a ~32 MB (the default byte budget) 720p video, 2 min, with AAC audio …
  'gen/big_32mb.mp4': [
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1280x720:rate=25:duration=120',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000:duration=120',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-b:v',
    '1900k',
    '-maxrate',
    '1900k',
    '-bufsize',
    '4M',
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-shortest',
  ],
  // … and 15 min of audio (the default duration budget) as MP3.
  'gen/long_15min.mp3': [
    '-stream_loop',
    '-1',
    '-i',
    join(SHARED_MEDIA_DIR, 'speech/jfk.wav'),
    '-t',
    '900',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '64k',
  ],
  'gen/jfk_60s.wav': [
    '-stream_loop',
    '-1',
    '-i',
    join(SHARED_MEDIA_DIR, 'speech/jfk.wav'),
    '-t',
    '60',
    '-ar',
    '16000',
    '-ac',
    '1',
    '-c:a',
    'pcm_s16le',
  ],
};

function mediaPath(name: string): string {
  const generator = GENERATED[name];
  if (!generator) return join(SHARED_MEDIA_DIR, name);
  const out = join(GENERATED_DIR, name.replace('/', '_'));
  if (!existsSync(out)) {
    mkdirSync(GENERATED_DIR, { recursive: true });
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...generator, out]);
  }
  return out;
}

function nativeDecode(path: string): Buffer {
  return execFileSync(
    'ffmpeg',
    [
      '-nostdin',
      '-y',
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      path,
      '-map',
      '0:a:0?',
      '-vn',
      '-sn',
      '-dn',
      '-af',
      'aresample=first_pts=0',
      '-ac',
      '1',
      '-ar',
      '16000',
      '-c:a',
      'pcm_s16le',
      '-f',
      's16le',
      'pipe:1',
    ],
    { maxBuffer: 512 * 1024 * 1024 },
  );
}

/** Linux clock ticks per second (USER_HZ) for /proc/<pid>/stat times. */
const CLOCK_TICKS_PER_SEC = 100;

function readProc(pid: string, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined; // the process ended between listing and reading
  }
}

/**
 * Resident memory (bytes) and CPU time used so far (ms) of the workerd processes started
 * by this vitest process (other test runs on the machine have workerd processes too).
 */
function workerdUsage(): { rssBytes: number; cpuMs: number } {
  const parentOf = new Map<string, string>();
  const pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  for (const pid of pids) {
    const ppid = /PPid:\s+(\d+)/.exec(readProc(pid, 'status') ?? '')?.[1];
    if (ppid) parentOf.set(pid, ppid);
  }
  const mine = (pid: string): boolean => {
    for (let p: string | undefined = pid; p && p !== '0' && p !== '1'; p = parentOf.get(p)) {
      if (p === String(process.pid)) return true;
    }
    return false;
  };
  let rssBytes = 0;
  let cpuMs = 0;
  for (const pid of pids) {
    if (!mine(pid) || !readProc(pid, 'cmdline')?.includes('workerd')) continue;
    const rss = /VmRSS:\s+(\d+) kB/.exec(readProc(pid, 'status') ?? '');
    if (rss) rssBytes += Number(rss[1]) * 1024;
    // Fields 14 and 15 (utime, stime) come after the ")" that closes the command name.
    const stat = readProc(pid, 'stat') ?? '';
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    cpuMs += ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SEC;
  }
  return { rssBytes, cpuMs };
}

/** The `MEDIA` service binding's handler. */
export async function mediaService(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  try {
    if (pathname === '/clock') return Response.json({ nowMs: performance.now(), ...workerdUsage() });
    if (pathname.startsWith('/file/'))
      return new Response(readFileSync(mediaPath(decodeURIComponent(pathname.slice(6)))));
    if (pathname.startsWith('/native/'))
      return new Response(nativeDecode(mediaPath(decodeURIComponent(pathname.slice(8)))));
    return new Response('not found', { status: 404 });
  } catch (error) {
    return new Response(String(error), { status: 500 });
  }
}
