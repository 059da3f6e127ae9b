/**
 * @module containers/media/core/settings
 * Whole-number settings read from the environment (thread counts, nice values, strides): the value
 * when it is an integer in range, otherwise the default, never an error (README "Configuration").
 */

/**
 * Pure: `value` as an integer in `min`–`max`, or `fallback` when it is absent, blank, not an
 * integer or out of range.
 * @example intSetting(process.env.PIPER_THREADS, { min: 1, max: 8, fallback: 2 })
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
