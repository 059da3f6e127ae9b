import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { MediaError } from '../../../../../containers/media/core/errors.js';
import { AsrAbortedError, AsrInputError } from '../../../../../containers/media/engines/asr/errors.js';
import { NoRenderProbe } from '../../../../../containers/media/engines/render/render-probes.js';
import { badInput } from '../../../../../containers/media/engines/render/errors.js';
import { TtsError } from '../../../../../containers/media/engines/tts/errors.js';
import { answeringErrors, errorAnswer } from '../../../../../containers/media/server/errors.js';

describe('errorAnswer', () => {
  it("should answer every engine's MediaError with its own code and status", () => {
    expect(errorAnswer(new AsrInputError('invalid_text', 'no text'), '/align')).toEqual({
      status: 400,
      body: { error: { code: 'invalid_text', message: 'no text' } },
    });
    expect(errorAnswer(new AsrAbortedError(), '/asr').status).toBe(408);
    expect(errorAnswer(new TtsError('tts_voice_not_found', 'no such voice', 404), '/tts').status).toBe(404);
    expect(errorAnswer(badInput('options_invalid', 'bad'), '/render').body.error.code).toBe(
      'options_invalid',
    );
    expect(errorAnswer(new NoRenderProbe('vid_x'), '/render/probe')).toMatchObject({
      status: 404,
      body: { error: { code: 'no_render' } },
    });
  });

  it('should answer anything else 500 with the failing engine’s code', () => {
    const boom = new Error('boom');
    const code = (path: string) => errorAnswer(boom, path).body.error.code;
    expect([code('/asr'), code('/align'), code('/tts'), code('/render'), code('/render/speech/j')]).toEqual([
      'engine_failed',
      'engine_failed',
      'tts_failed',
      'render_failed',
      'render_failed',
    ]);
    expect(errorAnswer(boom, '/asr').body.error.message).toBe('speech engine failed: boom');
    expect(errorAnswer(boom, '/probe')).toEqual({
      status: 500,
      body: { error: { code: 'internal_error', message: 'boom' } },
    });
    expect(errorAnswer(new Error(''), '/tts').body.error.message).toBe('speech synthesis failed');
  });
});

describe('answeringErrors', () => {
  it("should answer a sub-app's failures in the JSON shape", async () => {
    const routes = new Hono()
      .get('/tts', () => {
        throw new MediaError('tts_rate_limited', 'slow down', 429);
      })
      .get('/render/x', () => {
        throw new TypeError('broken');
      });
    const app = answeringErrors(routes);
    const limited = await app.request('/tts');
    expect([limited.status, await limited.json()]).toEqual([
      429,
      { error: { code: 'tts_rate_limited', message: 'slow down' } },
    ]);
    const broken = await app.request('/render/x');
    expect([broken.status, await broken.json()]).toEqual([
      500,
      { error: { code: 'render_failed', message: 'broken' } },
    ]);
  });
});
