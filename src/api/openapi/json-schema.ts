/**
 * @module api/openapi/json-schema
 * zod → JSON Schema 2020-12 (the dialect of OpenAPI 3.1), without the noise zod adds. A schema
 * that is itself a component is written as a `$ref` to it wherever it is nested.
 */
import { z } from 'zod';

export type Schema = Record<string, unknown>;

/** The component name of each zod schema the document lists under `components.schemas`. */
export type ComponentNames = ReadonlyMap<z.core.$ZodType, string>;

/** `#/components/schemas/{name}`. */
export const schemaRef = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/**
 * The JSON Schema of `schema`; nested schemas named in `components` become references.
 * @example
 * fromZod(z.object({ keys: z.array(KeyRecord) }), new Map([[KeyRecord, 'KeyRecord']]))
 * // { type: 'object', properties: { keys: { type: 'array', items: { $ref: '#/components/schemas/KeyRecord' } } }, ... }
 */
export function fromZod(schema: z.ZodType, components: ComponentNames = new Map()): Schema {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const name = components.get(zodSchema);
      if (!name || zodSchema === (schema as z.core.$ZodType)) return;
      for (const key of Object.keys(jsonSchema)) delete (jsonSchema as Schema)[key];
      Object.assign(jsonSchema, schemaRef(name));
    },
  }) as Schema;
  delete json.$schema;
  return clean(json) as Schema;
}

/** Drops zod's ±MAX_SAFE_INTEGER bounds on integers: they say nothing to a reader. */
function clean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(clean);
  if (!node || typeof node !== 'object') return node;
  const out: Schema = {};
  for (const [k, v] of Object.entries(node)) {
    if ((k === 'minimum' || k === 'maximum') && Math.abs(v as number) === Number.MAX_SAFE_INTEGER) continue;
    out[k] = clean(v);
  }
  return out;
}
