/** zod → JSON Schema for the document: components as references, no ±MAX_SAFE_INTEGER noise. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromZod } from '../../../../../src/api/openapi/json-schema.js';

const Part = z.object({ n: z.number().int() });

describe('fromZod', () => {
  it('should write a nested component as a reference but the root in full', () => {
    const names = new Map([[Part, 'Part']]);
    expect(fromZod(z.object({ parts: z.array(Part) }), names).properties).toEqual({
      parts: { type: 'array', items: { $ref: '#/components/schemas/Part' } },
    });
    expect(fromZod(Part, names)).toEqual({
      type: 'object',
      properties: { n: { type: 'integer' } },
      required: ['n'],
      additionalProperties: false,
    });
  });

  it('should drop the safe-integer bounds zod adds and keep real ones', () => {
    expect(fromZod(z.number().int())).toEqual({ type: 'integer' });
    expect(fromZod(z.number().int().min(1))).toEqual({ type: 'integer', minimum: 1 });
  });
});
