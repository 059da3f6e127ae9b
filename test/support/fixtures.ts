/**
 * Generated media fixtures (ffmpeg lavfi + espeak-ng), for tests that must not depend on
 * ../shared/media being present.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { ROOT, SHARED_MEDIA } from './services.js';

export const GENERATED = join(ROOT, 'test/.tmp/generated');

const ff = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

/**
 * Makes `name` once: written under a temporary name (same extension, so ffmpeg picks the format)
 * and renamed into place, so a test file running in parallel never reads a half-written fixture.
 */
function once(name: string, make: (path: string) => void): void {
  const path = join(GENERATED, name);
  if (existsSync(path)) return;
  const ext = extname(name);
  const tmp = join(
    GENERATED,
    `${name.slice(0, -ext.length)}.${process.pid}-${Math.random().toString(36).slice(2, 8)}.partial${ext}`,
  );
  make(tmp);
  renameSync(tmp, path);
}

/** Every video fixture's encoding: H.264 as fast as it goes, in the pixel format players take. */
const H264_FAST = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

/** Makes the small fixtures once; returns their directory. */
export function generateFixtures(): string {
  mkdirSync(GENERATED, { recursive: true });
  const out = (name: string) => join(GENERATED, name);
  once('tone-3s.mp4', (path) => {
    ff([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x240:rate=25:duration=3',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=3',
      ...H264_FAST,
      '-c:a',
      'aac',
      '-shortest',
      path,
    ]);
  });
  // A 4 s video whose audio (a 2 s tone) starts 2 s in, as a screen recording's microphone track can.
  once('late-audio.mp4', (path) => {
    ff([
      ...['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10:duration=4'],
      ...['-itsoffset', '2', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2'],
      ...H264_FAST,
      ...['-c:a', 'aac', path],
    ]);
  });
  // 3 s of tone whose video (1 s red, then 1 s blue) starts 1 s in: the picture at 1.0 s is red, at
  // 2.0 s blue. The video is encoded first: an offset given to a lavfi input is lost in the encode.
  // 1 s of red in 10-bit ProRes 422 (as a camera records; an iPhone's HDR HEVC is 10-bit too).
  once('red-10bit.mov', (path) =>
    ff([
      ...['-f', 'lavfi', '-i', 'color=c=red:size=160x120:rate=10:duration=1'],
      ...['-c:v', 'prores_ks', '-profile:v', '2', '-pix_fmt', 'yuv422p10le', path],
    ]),
  );
  once('late-video.mp4', (path) => {
    const video = `${path}.video.mp4`;
    ff([
      ...['-f', 'lavfi', '-i'],
      'color=c=red:size=160x120:rate=10:duration=1[a];color=c=blue:size=160x120:rate=10:duration=1[b];[a][b]concat',
      ...H264_FAST,
      video,
    ]);
    ff([
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', '-itsoffset', '1', '-i', video],
      ...['-map', '0:a', '-map', '1:v', '-c:v', 'copy', '-c:a', 'aac', path],
    ]);
    rmSync(video);
  });
  // Long enough at 720p for a blur render to take seconds: the render's progress has time to move.
  once('bars-720p-16s.mp4', (path) => {
    ff([
      ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25:duration=16'],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '30', '-pix_fmt', 'yuv420p', path],
    ]);
  });
  once('silent-2s.webm', (path) => {
    ff([
      '-f',
      'lavfi',
      '-i',
      'color=c=blue:size=160x120:rate=10:duration=2',
      '-c:v',
      'libvpx',
      '-b:v',
      '100k',
      path,
    ]);
  });
  once('speech.wav', (path) => {
    execFileSync('espeak-ng', [
      '-v',
      'en-us',
      '-w',
      path,
      'Hello there. This is a short test of the analysis service.',
    ]);
  });
  once('speech-de.wav', (path) => {
    execFileSync('espeak-ng', [
      '-v',
      'de',
      '-w',
      path,
      'Ähm, für die besten Aussichten auf Hongkong sollten Sie die Insel verlassen. Das Wetter ist heute sehr schön, und wir fahren auf den Berg.',
    ]);
  });
  once('jfk-20db-quieter.wav', (path) => {
    // A real recording at an ordinary laptop level (loudest frames near −28 dBFS).
    ff(['-i', join(SHARED_MEDIA, 'speech/jfk.wav'), '-af', 'volume=-20dB', path]);
  });
  once('jfk-40db-quieter.wav', (path) => {
    // Past what the VAD's gain makes up for (loudest frames near −48 dBFS).
    ff(['-i', join(SHARED_MEDIA, 'speech/jfk.wav'), '-af', 'volume=-40dB', path]);
  });
  once('jfk-antiphase.wav', (path) => {
    // jfk.wav in stereo with the right channel phase-inverted: their average is silence.
    ff(['-i', join(SHARED_MEDIA, 'speech/jfk.wav'), '-af', 'pan=stereo|c0=c0|c1=-1*c0', path]);
  });
  once('jfk-cut-short.mp4', (path) => {
    // jfk.wav under a still picture in a faststart MP4, cut after 60 % of its bytes (an interrupted copy).
    const whole = `${path}.whole.mp4`;
    ff([
      ...['-f', 'lavfi', '-i', 'color=c=gray:size=160x120:rate=5:duration=11'],
      ...['-i', join(SHARED_MEDIA, 'speech/jfk.wav'), '-shortest', '-movflags', '+faststart'],
      ...H264_FAST,
      ...['-c:a', 'aac', whole],
    ]);
    const bytes = readFileSync(whole);
    writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    rmSync(whole);
  });
  once('jfk-vbr-no-xing.mp3', (path) => {
    // 3 s of silence, then jfk.wav, as a variable-bitrate MP3 with no Xing header (as some recorders
    // and cutters write it): ffprobe can only guess its length from the first frames' bitrate.
    ff([
      ...['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono:d=3', '-i', join(SHARED_MEDIA, 'speech/jfk.wav')],
      ...[
        '-filter_complex',
        '[0][1]concat=n=2:v=0:a=1',
        '-c:a',
        'libmp3lame',
        '-q:a',
        '2',
        '-write_xing',
        '0',
        path,
      ],
    ]);
  });
  once('anamorphic-4x3.mp4', (path) => {
    // 2 s of 120×120 pixels shown 4:3 (each pixel 4/3 as wide as tall), as DVD and DV video store it.
    ff([
      ...['-f', 'lavfi', '-i', 'testsrc2=size=120x120:rate=10:duration=2,setsar=4/3'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2'],
      ...H264_FAST,
      ...['-c:a', 'aac', path],
    ]);
  });
  once('jfk-on-second-track.mp4', (path) => {
    // A video whose first audio track is digital silence and whose second is jfk.wav.
    ff([
      ...['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10:duration=11'],
      ...['-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=stereo', '-i', join(SHARED_MEDIA, 'speech/jfk.wav')],
      ...['-map', '0:v', '-map', '1:a', '-map', '2:a', '-shortest'],
      ...H264_FAST,
      ...['-c:a', 'aac', path],
    ]);
  });
  once('jfk-under-tone-track.mp4', (path) => {
    // A video whose first audio track is a loud tone (a game's or an app's sound, no speech) and
    // whose second is jfk.wav (the microphone).
    ff([
      ...['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10:duration=11'],
      ...[
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=220:sample_rate=48000:duration=11',
        '-i',
        join(SHARED_MEDIA, 'speech/jfk.wav'),
      ],
      ...['-map', '0:v', '-map', '1:a', '-map', '2:a', '-shortest'],
      ...H264_FAST,
      ...['-c:a', 'aac', path],
    ]);
  });
  once('jfk-3s-into-video.mp4', (path) => {
    // jfk.wav as the audio of a 14 s video, starting 3 s in (a late microphone track).
    ff([
      ...['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10:duration=14'],
      ...['-itsoffset', '3', '-i', join(SHARED_MEDIA, 'speech/jfk.wav')],
      ...H264_FAST,
      ...['-c:a', 'aac', path],
    ]);
  });
  once('speech.ogg', (path) => {
    ff(['-i', out('speech.wav'), '-c:a', 'libvorbis', '-q:a', '4', path]);
  });
  once('speech-silence-noise.wav', (path) => {
    // Speech, 20 s of digital silence, speech, 20 s of room-like noise (pink noise + mains hum), speech.
    ff([
      '-i',
      out('speech.wav'),
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=16000:cl=mono:d=20',
      '-f',
      'lavfi',
      '-i',
      'anoisesrc=color=pink:amplitude=0.05:duration=20:seed=7:sample_rate=16000',
      '-f',
      'lavfi',
      '-i',
      'sine=f=50:d=20:sample_rate=16000',
      '-filter_complex',
      '[0]aresample=16000,asplit=3[s1][s2][s3];[3]volume=0.02[hum];[2][hum]amix=inputs=2:duration=first[noise];[s1][1][s2][noise][s3]concat=n=5:v=0:a=1',
      '-ac',
      '1',
      '-ar',
      '16000',
      path,
    ]);
  });
  once('not-media.mp4', (path) => {
    writeFileSync(path, 'This is a plain text file pretending to be a video.\n'.repeat(20));
  });
  once('binary-junk.mp4', (path) => {
    const junk = Buffer.alloc(4096);
    for (let i = 0; i < junk.length; i++) junk[i] = (i * 7919 + 13) % 256;
    writeFileSync(path, junk);
  });
  return GENERATED;
}
