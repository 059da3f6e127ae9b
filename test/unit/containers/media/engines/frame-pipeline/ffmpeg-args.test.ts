import { describe, expect, it } from 'vitest';
import {
  colorTags,
  decoderArgs,
  encoderArgs,
  keptAudioTracks,
  MAX_OUTPUT_AUDIO_TRACKS,
} from '../../../../../../containers/media/engines/frame-pipeline/ffmpeg-args.js';
import type { RenderPlan } from '../../../../../../containers/media/engines/frame-pipeline/plan.js';

const plan: RenderPlan = {
  width: 1280,
  height: 720,
  fps: 25,
  durationSec: 10,
  fit: 'source',
  sourceHasAudio: true,
  decodeLoad: 1,
};

describe('decoderArgs', () => {
  it('should skip the frames asked for before the input, and only when asked', () => {
    const size = { loop: false, width: 256, height: 256, pixFmt: 'rgb24' as const, rough: true };
    const all = decoderArgs('in.mp4', plan, size);
    const skip = decoderArgs('in.mp4', plan, { ...size, skip: 'bidir' });
    expect(all).not.toContain('-skip_frame');
    expect(skip.slice(skip.indexOf('-skip_frame'), skip.indexOf('-skip_frame') + 2)).toEqual([
      '-skip_frame',
      'bidir',
    ]);
    expect(skip.indexOf('-skip_frame')).toBeLessThan(skip.indexOf('-i'));
    // The fps filter fills the skipped frames' slots (every output frame is still there), after
    // the scaler, which then scales the decoded frames only.
    expect(skip[skip.indexOf('-vf') + 1]).toMatch(/^scale=256:256:flags=area,format=rgb24,fps=25$/);
    expect(all[all.indexOf('-vf') + 1]).toMatch(/^fps=25,scale=/);
  });

  it('should pass every Nth frame of the fps sequence on as it is, only when asked', () => {
    const some = decoderArgs('in.mp4', plan, { loop: false, everyNth: 3 });
    expect(some[some.indexOf('-vf') + 1]).toMatch(/^fps=25,select=not\(mod\(n\\,3\)\),scale=/);
    expect(some.slice(some.indexOf('-fps_mode'), some.indexOf('-fps_mode') + 2)).toEqual([
      '-fps_mode',
      'passthrough',
    ]);
    const all = decoderArgs('in.mp4', plan, { loop: false });
    expect(all.join(' ')).not.toMatch(/select|fps_mode/);
  });
});

describe('encoderArgs', () => {
  const spec = { plan, audio: { kind: 'silent' as const }, output: 'out.mp4' };
  it('should read edited frames on stdin and their masks on fd 3, scaled up and merged in yuv420p', () => {
    const args = encoderArgs({
      ...spec,
      video: { kind: 'raw' },
      mask: { kind: 'pipe', width: 256, height: 256, fd: 3 },
    });
    const inputs = args.flatMap((a, i) => (a === '-i' ? [args[i + 1]] : []));
    expect(inputs.slice(0, 2)).toEqual(['pipe:0', 'pipe:3']);
    const graph = args[args.indexOf('-filter_complex') + 1];
    expect(graph).toContain('[1:v]scale=1280:720:flags=fast_bilinear[m]');
    expect(graph).toContain('[bg][sharp][m]maskedmerge[vout]');
  });

  it('should decode a source no larger than the output on one thread, a larger one on the default', () => {
    const file = { kind: 'file' as const, path: 'in.mp4', loop: true };
    const args = (decodeLoad: number) =>
      encoderArgs({ ...spec, plan: { ...plan, decodeLoad }, video: file, mask: { kind: 'none' } });
    const same = args(1);
    const i = same.indexOf('-i');
    expect(same.slice(i - 2, i + 2)).toEqual(['-threads', '1', '-i', 'in.mp4']);
    expect(same.indexOf('-stream_loop')).toBeLessThan(i);
    expect(args(2.25)).not.toContain('-threads');
  });

  it('should copy the source AAC only when it plays once, unshifted', () => {
    const source = { kind: 'source' as const, path: 'in.mp4', lagSec: 0, codec: 'aac' as string | null };
    const file = { kind: 'file' as const, path: 'in.mp4', loop: false };
    const args = (over: Partial<typeof source>, p: RenderPlan = plan) =>
      encoderArgs({ ...spec, plan: p, video: file, mask: { kind: 'none' }, audio: { ...source, ...over } });
    const copied = args({});
    expect(copied.slice(copied.indexOf('-c:a'), copied.indexOf('-c:a') + 2)).toEqual(['-c:a', 'copy']);
    expect(copied[copied.indexOf('-map', copied.indexOf('-map') + 1) + 1]).toBe('0:a:0');
    expect(copied[copied.indexOf('-filter_complex') + 1]).not.toContain('aresample');
    for (const encoded of [
      args({ codec: 'mp3' }),
      args({ codec: null }),
      args({ lagSec: 0.12 }),
      args({}, { ...plan, fit: 'trim' }),
      args({}, { ...plan, fit: 'loop' }),
    ]) {
      expect(encoded.slice(encoded.indexOf('-c:a'), encoded.indexOf('-c:a') + 2)).toEqual(['-c:a', 'aac']);
      expect(encoded[encoded.indexOf('-filter_complex') + 1]).toContain('aresample=48000');
    }
  });

  it('should keep every kept track of the source, each through the same chain, none copied', () => {
    const file = { kind: 'file' as const, path: 'in.mp4', loop: false };
    const audio = { kind: 'source' as const, path: 'in.mp4', lagSec: 0.12, codec: 'aac', tracks: 2 };
    const args = encoderArgs({ ...spec, video: file, mask: { kind: 'none' }, audio });
    const graph = args[args.indexOf('-filter_complex') + 1];
    expect(graph).toContain('[0:a:0]atrim=start=0.1200,asetpts=PTS-STARTPTS,aresample=48000');
    expect(graph).toContain('[0:a:1]atrim=start=0.1200,asetpts=PTS-STARTPTS,aresample=48000');
    const maps = args.flatMap((a, i) => (a === '-map' ? [args[i + 1]] : []));
    expect(maps).toEqual(['[vout]', '[aout0]', '[aout1]']);
    // Unshifted AAC is copied only when it is the one track.
    const unshifted = encoderArgs({
      ...spec,
      video: file,
      mask: { kind: 'none' },
      audio: { ...audio, lagSec: 0 },
    });
    expect(unshifted.slice(unshifted.indexOf('-c:a'), unshifted.indexOf('-c:a') + 2)).toEqual([
      '-c:a',
      'aac',
    ]);
  });

  it('should keep at least the first audio track and at most MAX_OUTPUT_AUDIO_TRACKS', () => {
    expect([undefined, 0, 1, 3, 99].map(keptAudioTracks)).toEqual([1, 1, 1, 3, MAX_OUTPUT_AUDIO_TRACKS]);
  });

  it('should refuse a mask on stdin beside raw frames', () => {
    expect(() =>
      encoderArgs({ ...spec, video: { kind: 'raw' }, mask: { kind: 'pipe', width: 256, height: 256 } }),
    ).toThrow(/stdin/);
  });
});

describe('colorTags', () => {
  it('should tag raw pictures with what the source says, and only that', () => {
    const color = { range: 'pc', space: 'bt2020nc', transfer: 'arib-std-b67', primaries: 'bt2020' };
    const base = { audio: { kind: 'silent' as const }, output: 'out.mp4', mask: { kind: 'none' as const } };
    const raw = encoderArgs({ ...base, plan: { ...plan, color }, video: { kind: 'raw' } });
    expect(raw[raw.indexOf('-filter_complex') + 1]).toMatch(
      /^\[0:v\]setparams=range=pc:color_primaries=bt2020:color_trc=arib-std-b67:colorspace=bt2020nc,setsar=1\[base\]/,
    );
    expect(colorTags({ range: null, space: 'bt709', transfer: null, primaries: null })).toBe(
      'setparams=colorspace=bt709,',
    );
    expect(colorTags({ range: null, space: null, transfer: null, primaries: null })).toBe('');
    expect(colorTags(undefined)).toBe('');
    // The file path's encoder decodes the source, whose frames carry their own tags.
    const file = encoderArgs({
      ...base,
      plan: { ...plan, color },
      video: { kind: 'file', path: 'in.mp4', loop: false },
    });
    expect(file[file.indexOf('-filter_complex') + 1]).not.toContain('setparams');
  });
});
