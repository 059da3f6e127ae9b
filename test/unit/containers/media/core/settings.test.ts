import { describe, expect, it } from 'vitest';
import { intSetting } from '../../../../../containers/media/core/settings.js';

describe('intSetting', () => {
  const range = { min: 1, max: 8, fallback: 2 };

  it('should take an integer in range', () => {
    expect(intSetting('1', range)).toBe(1);
    expect(intSetting(' 8 ', range)).toBe(8);
    expect(intSetting('0', { min: 0, max: 19, fallback: 10 })).toBe(0);
    expect(intSetting('64', { min: 1, fallback: 2 })).toBe(64);
  });

  it('should fall back when absent, blank, not an integer or out of range', () => {
    for (const bad of [undefined, '', '  ', '0', '9', '-1', '2.5', 'two', 'NaN', 'Infinity'])
      expect(intSetting(bad, range)).toBe(2);
  });
});
