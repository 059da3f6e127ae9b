import { describe, expect, it } from 'vitest';
import {
  mediaPath,
  PCM_BYTES_PER_SEC,
  PCM_CONTENT_TYPE,
  PCM_FORMAT,
} from '../../../../src/contract/media-protocol.js';
import { PCM_SAMPLE_RATE_HZ as EDGE_PCM_RATE_HZ } from '../../../../wasm/ffmpeg/limits.js';

describe('mediaPath', () => {
  it('should fill a route parameter with the encoded job id', () => {
    expect(mediaPath.job('vid a/b')).toBe('/jobs/vid%20a%2Fb');
    expect(mediaPath.jobSource('vid a/b')).toBe('/jobs/vid%20a%2Fb/source');
    expect(mediaPath.renderProgress('v1')).toBe('/render/progress/v1');
    expect(mediaPath.renderSpeech('v1')).toBe('/render/speech/v1');
    expect(mediaPath.vision()).toBe('/vision');
    expect(mediaPath.vision(2)).toBe('/vision?fps=2');
  });
});

describe('PCM_FORMAT', () => {
  it('should describe the same audio in its content type and byte rate', () => {
    expect(PCM_CONTENT_TYPE).toBe('audio/L16; rate=16000; channels=1');
    expect(PCM_BYTES_PER_SEC).toBe(32_000);
  });

  // The edge decode (wasm/, which imports nothing of ours) writes the same audio.pcm the
  // container's /audio does: its rate must be the protocol's.
  it('should be the rate the edge decode writes', () => {
    expect(EDGE_PCM_RATE_HZ).toBe(PCM_FORMAT.sampleRateHz);
  });
});
