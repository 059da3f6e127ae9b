/**
 * The generator of `paths`: what a table entry's credential, idempotency, path, form and
 * replies become, and the mistakes in a table it refuses.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formComponents, openApiPaths } from '../../../../../src/api/openapi/paths.js';
import type { RouteDoc } from '../../../../../src/api/openapi/routes.js';
import { JobCreated } from '../../../../../src/contract/responses.js';

const components = new Map([[JobCreated, 'JobCreated']]);
const Options = z.object({ loud: z.boolean().default(false).describe('Louder.') });

const route = (over: Partial<RouteDoc>): RouteDoc => ({
  method: 'post',
  path: '/api/things/{video_id}',
  operationId: 'makeThing',
  tag: 'jobs',
  summary: 'Make a thing',
  auth: 'apiKey',
  replies: { 200: { description: 'Made.', json: JobCreated } },
  ...over,
});
const op = (r: RouteDoc) => openApiPaths(components, [r])[r.path][r.method] as Record<string, any>;

describe('openApiPaths', () => {
  it('should refer to a contract component and add the error answers of the credential', () => {
    const o = op(route({ errors: ['NotFound'] }));
    expect(o.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/JobCreated',
    });
    expect(o.responses['200'].headers['X-Request-Id']).toBeTruthy();
    expect(Object.keys(o.responses).sort()).toEqual(['200', '401', '404', '429', '500']);
    expect(o.security).toBeUndefined();
    expect(op(route({ auth: 'admin' })).security).toEqual([{ adminBearer: [] }]);
    expect(Object.keys(op(route({ auth: 'admin' })).responses).sort()).toEqual(['200', '401', '503']);
    expect(op(route({ auth: 'public' })).security).toEqual([]);
  });

  it('should write other zod bodies inline with components as references', () => {
    const o = op(
      route({ replies: { 200: { description: 'List.', json: z.object({ jobs: z.array(JobCreated) }) } } }),
    );
    expect(o.responses['200'].content['application/json'].schema.properties.jobs.items).toEqual({
      $ref: '#/components/schemas/JobCreated',
    });
  });

  it('should describe path parameters from the path and mark idempotent routes', () => {
    const o = op(route({ idempotent: true }));
    expect(o.parameters[0]).toMatchObject({ name: 'video_id', in: 'path', required: true });
    expect(o.parameters[1]).toEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(o.responses['200'].headers['Idempotent-Replayed']).toBeTruthy();
    expect(op(route({})).responses['200'].headers['Idempotent-Replayed']).toBeUndefined();
  });

  it('should give a form route a multipart body naming its form and the media of its files', () => {
    const form = {
      component: 'ThingForm',
      description: 'A form.',
      parts: [
        { name: 'file', media: 'video' as const, description: 'The video.', withUploadRule: true },
        Options,
      ],
    };
    const body = op(route({ form })).requestBody.content['multipart/form-data'];
    expect(body.schema).toEqual({ $ref: '#/components/schemas/ThingForm' });
    expect(body.encoding).toEqual({ file: { contentType: 'video/*, application/octet-stream' } });
    const schema = formComponents(1234, [route({ form })]).ThingForm as Record<string, any>;
    expect(schema.properties.loud).toMatchObject({
      type: 'string',
      enum: ['true', 'false'],
      default: 'false',
    });
    expect(schema.properties.file.description).toMatch(/^The video\. .*at most 1234 bytes/);
  });

  it('should refuse a table with a route twice, two answers for one status or an unknown path parameter', () => {
    expect(() => openApiPaths(components, [route({}), route({})])).toThrow(/twice/);
    expect(() => op(route({ errors: ['NotFound', 'AvatarNotFound'] }))).toThrow(/share status 404/);
    expect(() => op(route({ path: '/api/{nope}' }))).toThrow(/\{nope\}/);
  });
});
