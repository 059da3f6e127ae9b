import { describe, expect, it } from 'vitest';
import {
  decoderArgs,
  skipNonReferenceWorthwhile,
} from '../../../../../../containers/media/engines/vision/frames.js';

describe('skipNonReferenceWorthwhile', () => {
  it('skips non-reference frames only when a sample keeps at most one source frame in three', () => {
    expect(skipNonReferenceWorthwhile(2, 25)).toBe(true);
    expect(skipNonReferenceWorthwhile(10, 30)).toBe(true);
    expect(skipNonReferenceWorthwhile(10, 25)).toBe(false);
    expect(skipNonReferenceWorthwhile(2, 5)).toBe(false);
  });
  it('decodes every frame when the source rate is unknown', () => {
    expect(skipNonReferenceWorthwhile(2, 0)).toBe(false);
  });
});

describe('decoderArgs', () => {
  it('runs one decoder thread and adds the skips asked for', () => {
    expect(decoderArgs(false)).toEqual(['-threads', '1']);
    expect(decoderArgs(false, true)).toEqual(['-threads', '1', '-skip_frame', 'noref']);
    expect(decoderArgs(true, true)).toEqual([
      '-threads',
      '1',
      '-skip_loop_filter',
      'all',
      '-skip_frame',
      'noref',
    ]);
  });
});
