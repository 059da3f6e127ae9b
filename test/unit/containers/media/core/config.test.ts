import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, configFrom, MEDIA_VARIABLES } from '../../../../../containers/media/core/config.js';

describe('configFrom', () => {
  it('should give the documented defaults for an empty environment', () => {
    const c = configFrom({});
    expect(c.server).toMatchObject({
      port: 8788,
      host: '0.0.0.0',
      holdMs: 2000,
      holdRunMs: 250,
      holdLingerMs: 1000,
    });
    expect(c.server.jobsPerKey).toBeUndefined();
    expect(c.core).toMatchObject({ ffprobePath: 'ffprobe', idleTimeoutSec: 120, requestBudgetMs: 3_600_000 });
    expect(c.core).toMatchObject({
      longWorkSec: 60,
      burstMemorySec: 60,
      maxMediaDurationSec: 7200,
      nativeVision: true,
    });
    expect(c.asr).toMatchObject({ engine: 'auto', workers: 2, beamSize: undefined });
    expect(c.tts).toMatchObject({ preload: true, piperThreads: 2, espeakPath: 'espeak-ng' });
    expect(c.render.blur).toEqual({
      masksPerSec: 2,
      motionDrift: 20,
      motionLocal: 80,
      motionJump: 20,
      maskDecode: 'noref',
      landscapeModel: true,
    });
    expect(c.render).toMatchObject({
      x264Preset: undefined,
      maxOutputBytes: 8 * 2 ** 30,
      probeWaitMs: 60_000,
    });
    expect(c.render).toMatchObject({ budgetBaseSec: 120, budgetFactor: 10, segmentationModel: 'selfie' });
    expect(c.render).toMatchObject({ meshEveryNth: 3, faceMeshThread: false, analysisMeshLanes: 2 });
    expect(c.render.sync).toBeNull();
    expect(c.render.gazeService).toBeNull();
    expect(c.vision).toMatchObject({ fps: 2, nice: 10, preload: true, hands: 'visible-wrist' });
  });

  it('should read set values, blank as unset, and freeze the result', () => {
    const c = configFrom({
      PORT: '9001',
      CONTAINER_PORT: '9002',
      MEDIA_HOLD_MS: '0',
      MEDIA_JOBS_PER_KEY: '3',
      ASR_ENGINE: ' Pocketsphinx ',
      PIPER_THREADS: ' 4 ',
      PIPER_VOICE_DIR: '',
      BLUR_MOTION_LOCAL: '0',
      BLUR_MASK_DECODE: 'all',
      FACE_MESH_THREAD: '1',
      ANALYSIS_MESH_LANES: '1',
      SYNC_API_URL: 'http://127.0.0.1:9/',
      SYNC_OUTPUT_HOSTS: 'a.example, .b.example,',
      RENDER_X264_PRESET: 'medium',
    });
    expect(c.server).toMatchObject({ port: 9001, holdMs: 0, jobsPerKey: 3 });
    expect(c.asr.engine).toBe('pocketsphinx');
    expect(c.tts).toMatchObject({ piperThreads: 4, piperVoiceDir: undefined });
    expect(c.render.blur).toMatchObject({ motionLocal: undefined, maskDecode: 'all' });
    expect(c.render).toMatchObject({ faceMeshThread: true, analysisMeshLanes: 1, x264Preset: 'medium' });
    expect(c.render.sync).toEqual({
      baseUrl: 'http://127.0.0.1:9/',
      apiKey: undefined,
      outputHosts: ['a.example', '.b.example'],
    });
    expect(configFrom({ CONTAINER_PORT: '9002' }).server.port).toBe(9002);
    expect(Object.isFrozen(c) && Object.isFrozen(c.render.blur) && Object.isFrozen(c.render.sync)).toBe(true);
  });

  it('should refuse a value that cannot be meant, naming the variable and the accepted form', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ PIPER_THREADS: 'two' }, /PIPER_THREADS="two" must be a whole number from 1 to 8/],
      [{ PIPER_THREADS: '9' }, /PIPER_THREADS="9" must be a whole number from 1 to 8/],
      [{ MEDIA_JOBS_PER_KEY: '0' }, /MEDIA_JOBS_PER_KEY="0" must be a whole number ≥ 1/],
      [{ MEDIA_JOBS_PER_KEY: 'lots' }, /MEDIA_JOBS_PER_KEY="lots"/],
      [{ MEDIA_HOLD_MS: '-1' }, /MEDIA_HOLD_MS="-1" must be a number ≥ 0/],
      [{ MEDIA_IDLE_TIMEOUT_SEC: '0' }, /MEDIA_IDLE_TIMEOUT_SEC="0" must be a number above 0/],
      [{ VISION_FPS: '60' }, /VISION_FPS="60" must be a number above 0 and at most 30/],
      [{ ASR_ENGINE: 'kaldi' }, /ASR_ENGINE="kaldi" must be one of auto, faster-whisper, pocketsphinx/],
      [{ TTS_PRELOAD: 'yes' }, /TTS_PRELOAD="yes" must be 1 \(on\) or 0 \(off\)/],
      [{ SEGMENTATION_MODEL: 'landscape' }, /SEGMENTATION_MODEL="landscape" must be one of selfie, meet/],
      [{ RENDER_X264_PRESET: 'fastest' }, /RENDER_X264_PRESET="fastest" must be one of ultrafast/],
      [
        { ELEVENLABS_BASE_URL: 'api.elevenlabs.io' },
        /ELEVENLABS_BASE_URL="api.elevenlabs.io" must be an absolute http\(s\) URL/,
      ],
      [{ PORT: '80a' }, /PORT="80a" must be a whole number from 0 to 65535/],
    ];
    for (const [env, message] of cases) {
      expect(() => configFrom(env)).toThrow(ConfigError);
      expect(() => configFrom(env)).toThrow(message);
    }
    // Every problem at once, so one start names them all.
    expect(() => configFrom({ PIPER_THREADS: 'two', VISION_NICE: '20' })).toThrow(
      /PIPER_THREADS.*; VISION_NICE/,
    );
  });

  it('should cover every variable docs/configuration.md lists for the container', () => {
    const doc = readFileSync('docs/configuration.md', 'utf8');
    const section = doc.slice(doc.indexOf('Media container environment'));
    // The first cell of each table row names the variables.
    const documented = section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...line.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
    const notRead = ['MEDIA_NODE_FLAGS']; // npm start's, not the container's
    for (const name of documented.filter((n) => !notRead.includes(n)))
      expect(MEDIA_VARIABLES).toContain(name);
    for (const name of MEDIA_VARIABLES) expect(documented).toContain(name);
  });
});
