/** The shared error answers: one status each, that of every code they carry. */
import { describe, expect, it } from 'vitest';
import {
  ERROR_RESPONSES,
  errorResponses,
  errorStatus,
  type ErrorResponseName,
} from '../../../../../src/api/openapi/error-responses.js';
import { ERROR_CODES } from '../../../../../src/contract/errors.js';

describe('error responses', () => {
  it('should carry codes of one status each', () => {
    for (const [name, { codes }] of Object.entries(ERROR_RESPONSES)) {
      expect(codes.length, name).toBeGreaterThan(0);
      expect(new Set(codes.map((c) => ERROR_CODES[c])).size, name).toBe(1);
    }
    expect(errorStatus('RateLimited')).toBe(429);
  });

  it('should list the codes in the description and keep the rate-limit headers', () => {
    const responses = errorResponses() as Record<ErrorResponseName, any>;
    expect(responses.LinkRejected.description).toMatch(/Codes: `invalid_signature`, `link_expired`\.$/);
    expect(Object.keys(responses.RateLimited.headers)).toEqual([
      'X-Request-Id',
      'Retry-After',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'RateLimit-Policy',
    ]);
  });
});
