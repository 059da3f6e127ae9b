/**
 * The route table against what it documents: every route the Hono app registers is an entry
 * and a path of the served document, and back; every option of `contract/options.ts` is a
 * field, with its default, of the form of each route that reads it.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../../../../../src/api/app.js';
import { ANALYZE_TEXT_FIELDS } from '../../../../../src/api/analyze.js';
import { AVATAR_TEXT_FIELDS } from '../../../../../src/api/avatars.js';
import { PROCESS_TEXT_FIELDS } from '../../../../../src/api/process.js';
import type { FormPart } from '../../../../../src/api/openapi/forms.js';
import { openApiDocument } from '../../../../../src/api/openapi/index.js';
import { formComponents } from '../../../../../src/api/openapi/paths.js';
import { ROUTES } from '../../../../../src/api/openapi/routes.js';
import * as contractOptions from '../../../../../src/contract/options.js';
import { webRoutes } from '../../../../../src/web/index.js';

const METHODS = ['get', 'put', 'post', 'delete', 'head', 'patch', 'options', 'trace'];
const doc = openApiDocument();

/** `METHOD /path` with every parameter (`:name`, `{name}`, a trailing `*`) written `{}`. */
const routeKey = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/:\w+|\{\w+\}|\*$/g, '{}')}`;

/** What the Worker serves: `src/index.ts` builds the app with the web page. */
const registered = () => {
  const app = createApp({ pages: webRoutes });
  return new Set(app.routes.filter((r) => r.method !== 'ALL').map((r) => routeKey(r.method, r.path)));
};
const tabled = () => new Set(ROUTES.map((r) => routeKey(r.method, r.path)));
const documented = () =>
  new Set(
    Object.entries(doc.paths as Record<string, object>).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => METHODS.includes(m))
        .map((m) => routeKey(m, path)),
    ),
  );

const missingFrom = (from: Set<string>, wanted: Set<string>) => [...wanted].filter((r) => !from.has(r));

describe('route table', () => {
  it('should have an entry for every route the app registers, and register every entry', () => {
    const app = registered();
    const table = tabled();
    expect(app.size).toBeGreaterThan(15);
    expect(missingFrom(table, app)).toEqual([]);
    expect(missingFrom(app, table)).toEqual([]);
  });

  it('should be exactly the routes of the served document', () => {
    expect(missingFrom(documented(), registered())).toEqual([]);
    expect(missingFrom(registered(), documented())).toEqual([]);
  });

  it('should name each route once', () => {
    const keys = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

/** The options objects `contract/options.ts` exports, by export name. */
const optionSchemas = Object.entries(contractOptions as Record<string, unknown>).flatMap(([name, schema]) =>
  schema instanceof z.ZodObject ? [[name, schema] as const] : [],
);
/** Options the API derives itself rather than reads from a form. */
const DERIVED = new Set(['ProcessOptions.speech']);

/** The routes whose form reads this very option (the same field schema, wherever it is spread). */
const routesReading = (field: z.ZodType) =>
  ROUTES.filter((r) =>
    r.form?.parts.some((part) => part instanceof z.ZodObject && Object.values(part.shape).includes(field)),
  );

const formOf = (component: string) =>
  doc.components.schemas[component] as {
    properties: Record<string, { default?: unknown; description?: string }>;
  };

/** The default a form states: booleans and numbers as the text a form sends. */
const formDefault = (field: z.ZodType) => {
  const fallback = field.safeParse(undefined).data;
  return fallback === null || fallback === undefined ? undefined : String(fallback);
};

describe('contract options in the forms', () => {
  it('should find option schemas to check', () => {
    expect(optionSchemas.map(([name]) => name)).toEqual(
      expect.arrayContaining(['AnalysisOptions', 'ProcessFormOptions', 'AvatarChoice', 'RenderToggles']),
    );
  });

  for (const [exportName, schema] of optionSchemas) {
    it(`should document every option of ${exportName} in the form of each route that reads it, with its default and description`, () => {
      for (const [option, field] of Object.entries(schema.shape) as [string, z.ZodType][]) {
        if (DERIVED.has(`${exportName}.${option}`)) continue;
        const routes = routesReading(field);
        expect(
          routes.map((r) => r.operationId),
          `${exportName}.${option} is read by no route`,
        ).not.toEqual([]);
        for (const route of routes) {
          const property = formOf(route.form!.component).properties[option];
          expect(property, `${route.operationId} form lacks ${option}`).toBeDefined();
          expect(property.default, `${route.operationId} ${option} default`).toBe(formDefault(field));
          expect(property.description, `${route.operationId} ${option} description`).toContain(
            field.description!,
          );
        }
      }
    });
  }

  it('should document a new option with no edit to the document', () => {
    const route = ROUTES.find((r) => r.operationId === 'analyzeVideo')!;
    const extended = contractOptions.AnalysisOptions.extend({
      new_toggle: z.boolean().default(true).describe('A new option.'),
    });
    const parts = route.form!.parts.map((p) => (p === contractOptions.AnalysisOptions ? extended : p));
    const changed = ROUTES.map((r) => (r === route ? { ...r, form: { ...r.form!, parts } } : r));
    expect(formComponents(1, changed).AnalyzeVideoForm.properties).toMatchObject({
      new_toggle: { enum: ['true', 'false'], default: 'true' },
    });
  });
});

describe('forms the handlers read', () => {
  /** Documented text fields of a form: every option of its schemas and its own text fields (not the files). */
  const documentedTextFields = (parts: FormPart[]) =>
    parts
      .flatMap((p) => (p instanceof z.ZodObject ? Object.keys(p.shape) : 'media' in p ? [] : [p.name]))
      .sort();
  const form = (operationId: string) => ROUTES.find((r) => r.operationId === operationId)!.form!.parts;

  it.each([
    ['analyzeVideo', ANALYZE_TEXT_FIELDS],
    ['processVideo', PROCESS_TEXT_FIELDS],
    ['registerAvatar', AVATAR_TEXT_FIELDS],
  ])('should accept exactly the text fields %s documents', (operationId, accepted) => {
    expect([...accepted].sort()).toEqual(documentedTextFields(form(operationId)));
  });
});
