import { describe, expect, it } from 'vitest';
import { asciiJson } from '../../../../../../containers/media/engines/render/routes.js';

describe('asciiJson (the x-render-report header)', () => {
  it('should escape every non-ASCII character and round-trip through JSON.parse', () => {
    const report = { notes: ['captions: alignment failed – even split'], name: 'Anaïs', emoji: '😀' };
    const text = asciiJson(report);
    expect(text).toMatch(/^[\x20-\x7e]*$/);
    expect(JSON.parse(text)).toEqual(report);
    expect(() => new Headers({ 'x-render-report': text })).not.toThrow();
  });
});
