import { describe, expect, it } from 'vitest';
import { quietRecordingWarning } from '../../../../../src/pipeline/steps/speech.js';
import { TOO_QUIET_DBFS } from '../../../../../wasm/vad/level.js';

describe('quietRecordingWarning', () => {
  it('should say nothing of an ordinary recording, of one the gain makes up for, or of silence', () => {
    expect(quietRecordingWarning(-8)).toBeNull();
    expect(quietRecordingWarning(-28)).toBeNull();
    expect(quietRecordingWarning(TOO_QUIET_DBFS)).toBeNull();
    expect(quietRecordingWarning(null)).toBeNull();
    expect(quietRecordingWarning(-120)).toBeNull();
  });

  it('should name the level and the remedy of a recording past the gain', () => {
    expect(quietRecordingWarning(-48.4)).toBe(
      'the recording is very quiet (its loudest sounds at -48 dBFS; speech detection raises audio by at ' +
        'most 30 dB, towards -10 dBFS): quieter speech may be missed; record closer to the microphone or ' +
        'with more input gain',
    );
  });
});
