/**
 * @module api/openapi/paths
 * `paths` and the form components of the OpenAPI document, generated from the route table
 * (`routes.ts`): nothing here names a route.
 */
import { errorStatus, type ErrorResponseName } from './error-responses.js';
import { formEncoding, formSchema } from './forms.js';
import { fromZod, schemaRef, type ComponentNames, type Schema } from './json-schema.js';
import { PATH_PARAMS, ROUTES, type Auth, type BodyDoc, type ReplyDoc, type RouteDoc } from './routes.js';

const X_REQUEST_ID = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
const IDEMPOTENT_REPLAYED = {
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', const: 'true' },
  },
};
const IDEMPOTENCY_KEY = { $ref: '#/components/parameters/IdempotencyKey' };

/** What each credential adds: the operation's `security` (absent: the document's API key) and its error answers. */
const AUTH: Record<Auth, { security?: Schema[]; errors: ErrorResponseName[] }> = {
  apiKey: { errors: ['Unauthorized', 'RateLimited', 'InternalError'] },
  admin: { security: [{ adminBearer: [] }], errors: ['Unauthorized', 'NotConfigured'] },
  public: { security: [], errors: [] },
};

const content = (body: BodyDoc, components: ComponentNames): Record<string, Schema> | undefined => {
  if (body.json) {
    const name = components.get(body.json);
    return { 'application/json': { schema: name ? schemaRef(name) : fromZod(body.json, components) } };
  }
  return (
    body.content &&
    Object.fromEntries(Object.entries(body.content).map(([media, schema]) => [media, { schema }]))
  );
};

function reply(r: ReplyDoc, replayable: boolean, components: ComponentNames): Schema {
  const media = content(r, components);
  return {
    description: r.description,
    headers: { ...X_REQUEST_ID, ...(replayable ? IDEMPOTENT_REPLAYED : {}), ...r.headers },
    ...(media ? { content: media } : {}),
  };
}

const pathParams = (path: string): Schema[] =>
  [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
    if (!PATH_PARAMS[name]) throw new Error(`path parameter {${name}} of ${path} is not in PATH_PARAMS`);
    return { name, in: 'path', required: true, ...PATH_PARAMS[name] };
  });

function responses(route: RouteDoc, components: ComponentNames): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const [status, r] of Object.entries(route.replies))
    out[status] = reply(r, !!route.idempotent && status.startsWith('2'), components);
  for (const name of [...(route.errors ?? []), ...AUTH[route.auth].errors]) {
    const status = String(errorStatus(name));
    if (out[status])
      throw new Error(`${route.operationId}: ${name} and another answer share status ${status}`);
    out[status] = { $ref: `#/components/responses/${name}` };
  }
  return out;
}

function requestBody(route: RouteDoc, components: ComponentNames): Schema | undefined {
  if (route.form)
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: schemaRef(route.form.component),
          encoding: formEncoding(route.form),
        },
      },
    };
  return route.body && { required: true, content: content(route.body, components) };
}

function operation(route: RouteDoc, components: ComponentNames): Schema {
  const parameters = [
    ...pathParams(route.path),
    ...(route.params ?? []),
    ...(route.idempotent ? [IDEMPOTENCY_KEY] : []),
  ];
  const body = requestBody(route, components);
  const { security } = AUTH[route.auth];
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...(security ? { security } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: responses(route, components),
  };
}

/**
 * The `paths` object: one operation per table entry, paths in the table's order.
 * @example
 * openApiPaths(new Map())['/api/analyze-video'].post.operationId // 'analyzeVideo'
 */
export function openApiPaths(
  components: ComponentNames,
  routes: RouteDoc[] = ROUTES,
): Record<string, Record<string, Schema>> {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    if (item[route.method])
      throw new Error(`${route.method.toUpperCase()} ${route.path} is in the route table twice`);
    item[route.method] = operation(route, components);
  }
  return paths;
}

/** The form schemas the table's upload routes name, keyed by component name. */
export const formComponents = (maxUploadBytes: number, routes: RouteDoc[] = ROUTES): Record<string, Schema> =>
  Object.fromEntries(
    routes.flatMap((r) => (r.form ? [[r.form.component, formSchema(r.form, maxUploadBytes)]] : [])),
  );
