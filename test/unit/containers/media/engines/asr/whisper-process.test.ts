/** How the Whisper worker's error lines become errors (pure): retried only when memory ran out. */
import { describe, expect, it } from 'vitest';
import { whisperFailure } from '../../../../../../containers/media/engines/asr/whisper-process.js';
import { AsrDecodeError, AsrEngineError } from '../../../../../../containers/media/engines/asr/errors.js';

describe('whisperFailure', () => {
  it('should not retry an exception the same audio raises again', () => {
    for (const line of [
      'IndexError: list index out of range',
      "ValueError: 'xx' is not a valid language code",
    ]) {
      const err = whisperFailure(line);
      expect(err).toBeInstanceOf(AsrDecodeError);
      expect(err.status).toBe(422);
      expect(err.code).toBe('engine_failed');
      expect(err.message).toBe(`Whisper failed: ${line}`);
    }
  });

  it('should retry running out of memory', () => {
    for (const line of [
      'MemoryError: ',
      'RuntimeError: std::bad_alloc',
      'RuntimeError: CUDA out of memory',
    ]) {
      const err = whisperFailure(line);
      expect(err).toBeInstanceOf(AsrEngineError);
      expect(err.status).toBe(500);
    }
  });
});
