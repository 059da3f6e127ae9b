/**
 * The OpenAPI document: valid 3.1, every $ref resolves, every error code and field described
 * (routes.test.ts checks that it documents exactly the routes the app serves).
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { docsRoutes, openApiDocument } from '../../../../src/api/docs.js';
import { renderDocs } from '../../../../src/api/openapi/index.js';
import { ERROR_CODES } from '../../../../src/contract/errors.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const doc = openApiDocument();

function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refs(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

describe('openapi document', () => {
  it('should pass the OpenAPI 3.1 schema validator', async () => {
    const validator = new Validator();
    const res = await validator.validate(structuredClone(doc));
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('should resolve every $ref', () => {
    for (const ref of refs(doc)) {
      const target = ref
        .split('/')
        .slice(1)
        .reduce((o: any, k) => o?.[k], doc);
      expect(target, ref).toBeTruthy();
    }
  });

  it('should give every operation an operationId and responses, ids unique', () => {
    const ids: string[] = [];
    for (const item of Object.values(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(item)) {
        if (!METHODS.includes(method)) continue;
        expect(op.operationId).toBeTruthy();
        expect(Object.keys(op.responses ?? {}).length).toBeGreaterThan(0);
        ids.push(op.operationId);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('should list every error code with its HTTP status and when it occurs', () => {
    const listed = doc['x-error-codes'] as Array<{ code: string; status: number; when: string }>;
    expect(listed.map((e) => e.code).sort()).toEqual(Object.keys(ERROR_CODES).sort());
    for (const e of listed) {
      expect(e.status).toBe(ERROR_CODES[e.code as keyof typeof ERROR_CODES]);
      expect(e.when.length).toBeGreaterThan(20);
    }
    expect(doc.components.schemas.ErrorBody.properties.error.properties.code.enum.sort()).toEqual(
      Object.keys(ERROR_CODES).sort(),
    );
  });

  it('should document both API key schemes, the admin bearer and X-Request-Id', () => {
    const schemes = doc.components.securitySchemes;
    expect(schemes.apiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(schemes.apiKeyQuery).toMatchObject({ type: 'apiKey', in: 'query', name: 'api_key' });
    expect(schemes.adminBearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/admin/keys'].post.security).toEqual([{ adminBearer: [] }]);
    expect(doc.paths['/files/{key}'].get.security).toEqual([]);
    expect(doc.components.headers['X-Request-Id']).toBeTruthy();
  });

  it('should describe every multipart field with type, default and rules', () => {
    const form = doc.components.schemas.ProcessVideoForm.properties;
    expect(Object.keys(form).sort()).toEqual(
      [
        'audio',
        'blur_background',
        'credential_voice_generator',
        'description',
        'eye_contact_correction',
        'file',
        'file_id',
        'lip_sync_correction',
        'lip_sync_correction_model',
        'video_id',
        'voice_generator',
        'voice_id',
        'webhook_url',
      ].sort(),
    );
    expect(form.blur_background).toMatchObject({ type: 'string', enum: ['true', 'false'], default: 'true' });
    expect(form.voice_generator).toMatchObject({ enum: ['0', '1', '2'], default: '0' });
    expect(form.description.maxLength).toBe(5000);
    expect(form.voice_generator.description).toMatch(/without `audio` is a 400/);
    for (const [name, field] of Object.entries(form as Record<string, { description?: string }>))
      expect(field.description, name).toBeTruthy();
    expect(doc.components.schemas.AnalyzeVideoForm.properties.visual_analytics.default).toBe('false');
  });

  it('should state the decisions the spec leaves open and the limits', () => {
    const text = JSON.stringify(doc);
    expect(doc.components.schemas.StatusResponse.properties.status.description).toMatch(/HTTP 200/);
    expect(doc.components.schemas.AvatarRegistered.properties.video_id.pattern).toMatch(/^\^avt_/);
    for (const phrase of [
      '2 GiB',
      '5000 characters',
      '24 h',
      'repeated field is a 400',
      'Unknown form fields are a 400',
      '415',
      'error_message',
      'warnings',
    ]) {
      expect(text, phrase).toContain(phrase);
    }
  });

  it('should describe every field of the analysis result', () => {
    const result = doc.components.schemas.AnalysisResult;
    const missing: string[] = [];
    const walk = (s: any, path: string) => {
      if (!s || s.$ref) return;
      if (path && !s.description) missing.push(path);
      for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, path ? `${path}.${k}` : k);
      if (s.items && !s.items.$ref && s.items.properties)
        for (const [k, v] of Object.entries(s.items.properties)) walk(v, `${path}[].${k}`);
    };
    walk(result, '');
    expect(missing.filter((p) => !/\.(start|end)$/.test(p) || !p.includes('timestamps'))).toEqual([]);
    expect(result.description).toMatch(/DEFINITIONS\.md/);
  });
});

describe('docs routes', () => {
  it('should serve the document as JSON with the request origin as server', async () => {
    const res = await docsRoutes.request('http://api.test/openapi.json');
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.openapi).toBe('3.1.0');
    expect(body.servers[0].url).toBe('http://api.test');
  });

  it('should render a readable page with a section per operation and no external resources', async () => {
    const res = await docsRoutes.request('/docs');
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const html = await res.text();
    for (const id of [
      'analyzeVideo',
      'processVideo',
      'registerAvatar',
      'getStatus',
      'downloadFile',
      'revokeApiKey',
    ])
      expect(html).toContain(`id="op-${id}"`);
    expect(html).toContain('<code>voice_generator</code>');
    expect(html).toContain('<code>summary.words_per_minute</code>');
    expect(html).not.toMatch(/(src|href)="https?:/);
    expect(html).not.toContain('<script');
    expect(renderDocs(doc)).toBe(renderDocs(doc));
  });
});
