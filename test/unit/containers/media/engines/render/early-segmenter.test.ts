import { describe, expect, it } from 'vitest';
import { earlySegmenter } from '../../../../../../containers/media/engines/render/early-segmenter.js';
import type { Segmenter } from '../../../../../../containers/media/engines/segment/index.js';

/** A segmenter factory that counts its starts and its segmenters' disposals. */
function counting() {
  const counts = { started: 0, disposed: 0 };
  const segmenter = async (): Promise<Segmenter> => {
    counts.started++;
    const dispose = () => void counts.disposed++;
    return {
      name: 'fake',
      inputWidth: 2,
      inputHeight: 2,
      segment: async () => new Float32Array(4),
      dispose,
      [Symbol.dispose]: dispose,
    };
  };
  return { counts, engines: { segmenter } };
}

describe('earlySegmenter', () => {
  it('should start the segmenter once when the options ask for blur, and hand that one to the render', async () => {
    const { counts, engines } = counting();
    const early = earlySegmenter(engines);
    early.onField('options', JSON.stringify({ blur_background: true }));
    early.onField('options', JSON.stringify({ blur_background: true }));
    expect(counts.started).toBe(1);
    const first = early.engines().segmenter!();
    expect(early.engines().segmenter!()).toBe(first);
    early.dispose();
    await first;
    await new Promise((r) => setTimeout(r, 0));
    expect(counts).toEqual({ started: 1, disposed: 0 }); // the render owns it
  });

  it('should end a segmenter the render never took', async () => {
    const { counts, engines } = counting();
    const early = earlySegmenter(engines);
    early.onField('options', JSON.stringify({ blur_background: true }));
    early.dispose();
    await new Promise((r) => setTimeout(r, 0));
    expect(counts).toEqual({ started: 1, disposed: 1 });
  });

  it('should start nothing without blur, for other fields or options it cannot read', () => {
    const { counts, engines } = counting();
    const early = earlySegmenter(engines);
    early.onField('options', JSON.stringify({ blur_background: false }));
    early.onField('captions', JSON.stringify({ blur_background: true }));
    early.onField('options', '{not json');
    expect(counts.started).toBe(0);
    expect(early.engines()).toBe(engines);
  });
});
