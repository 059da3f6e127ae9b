/**
 * @module containers/media/core/settings
 * Whole-number settings of the vision engine (thread count, nice value), which still reads its
 * variables itself until it takes its slice of core/config.ts; the service's start has already
 * refused a value out of range there, so the fallback here only serves direct calls (tests).
 */

/**
 * Pure: `value` as an integer in `min`–`max`, or `fallback` when it is absent, blank, not an
 * integer or out of range.
 * @example intSetting('4', { min: 1, max: 8, fallback: 2 }) // → 4
 */
export function intSetting(
  value: string | undefined,
  { min, max = Number.MAX_SAFE_INTEGER, fallback }: { min: number; max?: number; fallback: number },
): number {
  // Number('') and Number(' ') are 0: blank means "not set".
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  return Number.isInteger(n) && n >= min && n <= max ? n : fallback;
}
