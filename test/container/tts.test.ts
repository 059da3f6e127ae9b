import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTtsRoutes } from '../../containers/media/engines/tts/index.js';
import { createElevenLabsEngine } from '../../containers/media/engines/tts/elevenlabs.js';
import { parseWav } from '../../containers/media/engines/tts/wav.js';
import { MAX_TTS_TEXT_CHARS } from '../../src/contract/tts.js';
import { startFakeElevenLabs, type FakeElevenLabs } from '../fakes/elevenlabs.js';
import { answeringErrors } from '../../containers/media/server/errors.js';

type ErrorBody = { error: { code: string; message: string } };
const err = async (res: Response) => ((await res.json()) as ErrorBody).error;

const post = (app: ReturnType<typeof createTtsRoutes>, body: unknown) =>
  app.request('/tts', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('POST /tts generator 0 (embedded: Piper voice, else espeak-ng)', () => {
  it('should return a 22.05 kHz 16-bit mono WAV of plausible length', async () => {
    const res = await post(answeringErrors(createTtsRoutes()), {
      generator: 0,
      text: 'Hello, this is a short test of the speech engine.',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    const wav = Buffer.from(await res.arrayBuffer());
    const info = parseWav(wav);
    expect(info).toMatchObject({ sampleRateHz: 22_050, channels: 1, bitsPerSample: 16 });
    const seconds = info.dataBytes / 2 / info.sampleRateHz;
    expect(seconds).toBeGreaterThan(1.5);
    expect(seconds).toBeLessThan(6);
    // A whole result states its duration; the Piper voice streams, its length unknown up front.
    if (res.headers.get('x-audio-duration'))
      expect(Number(res.headers.get('x-audio-duration'))).toBeCloseTo(seconds, 2);
    else expect(res.headers.get('content-length')).toBeNull();
  });

  it('should refuse empty text and bad voices with a JSON error', async () => {
    const app = answeringErrors(createTtsRoutes());
    const r1 = await post(app, { generator: 0, text: '  ' });
    expect(r1.status).toBe(400);
    expect((await err(r1)).code).toBe('tts_text_missing');
    const r2 = await post(app, { generator: 0, text: 'hi', voice_id: 'en; rm -rf /' });
    expect(r2.status).toBe(400);
    expect((await err(r2)).code).toBe('tts_voice_invalid');
  });

  it('should refuse what the contract refuses, with a code per field', async () => {
    const app = answeringErrors(createTtsRoutes());
    expect((await err(await post(app, { generator: 2, text: 'hi' }))).code).toBe('tts_generator_invalid');
    expect(
      (await err(await post(app, { generator: 0, text: 'a'.repeat(MAX_TTS_TEXT_CHARS + 1) }))).code,
    ).toBe('tts_text_too_long');
    expect((await err(await post(app, { generator: 0 }))).code).toBe('tts_text_missing');
    expect((await err(await post(app, [1]))).code).toBe('tts_request_invalid');
    const bad = await app.request('/tts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(bad.status).toBe(400);
    expect((await err(bad)).code).toBe('tts_request_invalid');
  });
});

describe('POST /tts generator 1 (ElevenLabs adapter against the fake)', () => {
  let fake: FakeElevenLabs;
  beforeAll(async () => {
    fake = await startFakeElevenLabs({ validKeys: ['server-key', 'user-key'] });
  });
  afterAll(() => fake.close());

  const app = (opts: { apiKey?: string; outputFormat?: string } = {}) =>
    answeringErrors(
      createTtsRoutes({
        engines: {
          1: () => createElevenLabsEngine({ baseUrl: fake.url, modelId: 'eleven_multilingual_v2', ...opts }),
        },
      }),
    );

  it('should decode the MP3 answer to a 24 kHz WAV and send the wire format', async () => {
    const res = await post(app({ apiKey: 'server-key' }), {
      generator: 1,
      text: 'Hello from the provider',
      voice_id: 'test-voice',
    });
    expect(res.status).toBe(200);
    const info = parseWav(Buffer.from(await res.arrayBuffer()));
    expect(info.sampleRateHz).toBe(24_000);
    expect(info.dataBytes / 2 / 24_000).toBeGreaterThan(1.2);
    const call = fake.calls.at(-1)!;
    expect(call).toMatchObject({
      voiceId: 'test-voice',
      outputFormat: 'mp3_44100_128',
      apiKey: 'server-key',
    });
    expect(call.body).toEqual({ text: 'Hello from the provider', model_id: 'eleven_multilingual_v2' });
  });

  it('should prefer the request credential and wrap pcm_24000 output', async () => {
    const res = await post(app({ apiKey: 'server-key', outputFormat: 'pcm_24000' }), {
      generator: 1,
      text: 'Hi there',
      credential: 'user-key',
    });
    expect(res.status).toBe(200);
    expect(fake.calls.at(-1)!.apiKey).toBe('user-key');
    expect(parseWav(Buffer.from(await res.arrayBuffer())).sampleRateHz).toBe(24_000);
  });

  it('should report a provider 401 with its status and message', async () => {
    const res = await post(app({ apiKey: 'server-key' }), { generator: 1, text: 'Hi', credential: 'wrong' });
    expect(res.status).toBe(401);
    const error = await err(res);
    expect(error.code).toBe('tts_provider_unauthorized');
    expect(error.message).toContain('401');
    expect(error.message).toContain('Invalid API key');
  });

  it('should map 429 and 5xx from the provider', async () => {
    const r429 = await post(app(), { generator: 1, text: 'Hi', credential: 'rate-limited' });
    expect(r429.status).toBe(429);
    expect((await err(r429)).message).toContain('too_many_concurrent_requests');
    const r500 = await post(app(), { generator: 1, text: 'Hi', credential: 'server-error' });
    expect(r500.status).toBe(502);
    expect((await err(r500)).message).toContain('ElevenLabs responded 500');
  });

  it('should answer tts_credentials_missing with no credential and no server key', async () => {
    const res = await post(app(), { generator: 1, text: 'Hi' });
    expect(res.status).toBe(400);
    expect((await err(res)).code).toBe('tts_credentials_missing');
  });
});
