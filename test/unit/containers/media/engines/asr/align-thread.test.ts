import { describe, expect, it } from 'vitest';
import { replyError } from '../../../../../../containers/media/engines/asr/align-thread.js';
import {
  AsrAbortedError,
  AsrEngineError,
  AsrInputError,
} from '../../../../../../containers/media/engines/asr/errors.js';

describe('replyError', () => {
  it('rebuilds the class the aligner threw on its thread, from the code', () => {
    const input = replyError('invalid_text', 'alignment text has no words');
    expect(input).toBeInstanceOf(AsrInputError);
    expect(input).toMatchObject({
      code: 'invalid_text',
      status: 400,
      message: 'alignment text has no words',
    });
    expect(replyError('invalid_audio', 'audio is empty')).toMatchObject({
      code: 'invalid_audio',
      status: 400,
    });
    expect(replyError('aborted', 'x')).toBeInstanceOf(AsrAbortedError);
  });
  it('makes anything else an engine failure (500)', () => {
    for (const code of ['engine_failed', 'model_not_found'] as const) {
      const err = replyError(code, 'forced alignment failed: …');
      expect(err).toBeInstanceOf(AsrEngineError);
      expect(err).toMatchObject({ code: 'engine_failed', status: 500 });
    }
  });
});
