/**
 * @module bench/support/media
 * The benches' test media, built with Debian ffmpeg from ../shared/media into a temp dir: a
 * 1280×720 talking head (with its speech) of any length, and a minute of real speech as MP3.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_ROOT } from './service.js';

export const SHARED_MEDIA = join(BENCH_ROOT, '../shared/media');
const TALKING_HEAD = join(SHARED_MEDIA, 'talking_head/sadtalker_wda_aoc.mp4');

export function ffmpeg(...args: string[]): void {
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);
}

/**
 * `sec` seconds of 1280×720 talking head with its speech (H.264 veryfast + AAC). Lengths past a
 * minute loop one encoded minute by stream copy: seconds, not minutes, to build.
 */
export function talkingHead720p(dir: string, sec: number): string {
  const minute = join(dir, 'talking720p-60s.mp4');
  if (!existsSync(minute)) {
    ffmpeg(
      '-stream_loop',
      '-1',
      '-i',
      TALKING_HEAD,
      '-t',
      '60',
      '-vf',
      'scale=1280:720:force_original_aspect_ratio=increase,crop=1280:720',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-c:a',
      'aac',
      minute,
    );
  }
  if (sec === 60) return minute;
  const out = join(dir, `talking720p-${sec}s.mp4`);
  ffmpeg('-stream_loop', '-1', '-i', minute, '-t', String(sec), '-c', 'copy', out);
  return out;
}

/** The floor every render pays: a native superfast CRF 20 x264 + AAC transcode of `input`. */
export const floorTranscodeArgs = (input: string, output: string): string[] => [
  '-y',
  '-i',
  input,
  '-c:v',
  'libx264',
  '-preset',
  'superfast',
  '-crf',
  '20',
  '-c:a',
  'aac',
  output,
];

/** `sec` seconds of speech: every clip of ../shared/media/speech with 0.4 s gaps, looped, as 44.1 kHz MP3. */
export function speechMp3(dir: string, sec: number): string {
  const speechDir = join(SHARED_MEDIA, 'speech');
  const clips = readdirSync(speechDir)
    .filter((f) => f.endsWith('.wav'))
    .sort();
  const parts = clips.map((f, i) => {
    const p = join(dir, `part${i}.wav`);
    ffmpeg('-i', join(speechDir, f), '-af', 'apad=pad_dur=0.4', '-ar', '44100', '-ac', '1', p);
    return `file '${p}'`;
  });
  const list = join(dir, 'list.txt');
  writeFileSync(list, parts.join('\n'));
  const out = join(dir, `speech${sec}.mp3`);
  ffmpeg(
    '-stream_loop',
    '-1',
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    list,
    '-t',
    String(sec),
    '-c:a',
    'libmp3lame',
    '-b:a',
    '128k',
    out,
  );
  return out;
}
