/**
 * @module api/openapi/paths
 * `paths` of the OpenAPI document: one operation per route the app serves.
 */

type Obj = Record<string, unknown>;

const json = (ref: string, description: string): Obj => ({
  description,
  headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } },
});
const err = (name: string): Obj => ({ $ref: `#/components/responses/${name}` });
const PUBLIC: Obj[] = [];
const ADMIN: Obj[] = [{ adminBearer: [] }];

const multipart = (schema: string): Obj => ({
  required: true,
  content: {
    'multipart/form-data': {
      schema: { $ref: `#/components/schemas/${schema}` },
      encoding: { file: { contentType: 'video/*, application/octet-stream' }, audio: { contentType: 'audio/*, application/octet-stream' } },
    },
  },
});

const apiErrors = { '401': err('Unauthorized'), '429': err('RateLimited'), '500': err('InternalError') };
const uploadErrors = { '400': err('BadRequest'), ...apiErrors, '404': err('NotFound'), '409': err('Conflict'), '413': err('PayloadTooLarge'), '415': err('UnsupportedMediaType'), '422': err('IdempotencyKeyReused') };
const idempotencyKey: Obj = { $ref: '#/components/parameters/IdempotencyKey' };
const jobCreated = (what: string): Obj => ({
  ...json('JobCreated', what),
  headers: {
    'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
    'Idempotent-Replayed': { description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key.', schema: { type: 'string', const: 'true' } },
  },
});
const uploadParam: Obj = { name: 'upload_id', in: 'path', required: true, schema: { type: 'string' }, description: 'The `upl_` id from `POST /api/uploads`.' };

const statusOperation = (operationId: string, summary: string, extra: string): Obj => ({
  operationId,
  tags: ['jobs'],
  summary,
  description: `Returns the state of an analysis or processing job. Poll it until status is completed or failed (every 1–2 s, backing off). An id this API key did not create — unknown, malformed, or another key's — answers **HTTP 200 with status \`not_found\`**, never 404, so ids cannot be probed. Responses carry \`Cache-Control: private, no-store\`. ${extra}`,
  parameters: [{ name: 'video_id', in: 'path', required: true, schema: { type: 'string' }, description: 'The `vid_` id returned by analyze-video or process-video.' }],
  responses: { '200': json('StatusResponse', 'The job state.'), ...apiErrors },
});

const fileParams: Obj[] = [
  { name: 'key', in: 'path', required: true, schema: { type: 'string' }, description: 'Storage key of the file; may contain `/` (e.g. `outputs/vid_…/video.mp4`). Take the whole link from `download_url`; do not build it.' },
  { name: 'expires', in: 'query', required: true, schema: { type: 'string', pattern: '^\\d{1,12}$' }, description: 'Expiry, Unix seconds.' },
  { name: 'token', in: 'query', required: true, schema: { type: 'string' }, description: 'HMAC-SHA256 of key and expiry (base64url).' },
  { name: 'Range', in: 'header', required: false, schema: { type: 'string', example: 'bytes=0-1023' }, description: 'One `bytes=start-end`, `bytes=start-` or `bytes=-suffix` range → 206. Multi-range or malformed ranges are ignored (whole file, 200).' },
];
const fileHeaders: Obj = {
  'Accept-Ranges': { schema: { type: 'string', const: 'bytes' } },
  'Content-Length': { schema: { type: 'integer' } },
  'Content-Range': { schema: { type: 'string' }, description: 'With 206: `bytes start-end/size`.' },
  ETag: { schema: { type: 'string' } },
  'Content-Disposition': { schema: { type: 'string' }, description: '`attachment; filename="vid_…-video.mp4"`.' },
};
const fileResponses = (withBody: boolean): Obj => ({
  '200': { description: 'The whole file.', headers: fileHeaders, ...(withBody ? { content: { 'video/mp4': { schema: { type: 'string', contentMediaType: 'video/mp4' } } } } : {}) },
  '206': { description: 'The requested range.', headers: fileHeaders, ...(withBody ? { content: { 'video/mp4': { schema: { type: 'string', contentMediaType: 'video/mp4' } } } } : {}) },
  '403': err('LinkRejected'),
  '404': err('NotFound'),
  '416': err('RangeNotSatisfiable'),
  '503': err('NotConfigured'),
});

const html = (description: string): Obj => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });

/**
 * The `paths` object.
 * @example
 * openApiPaths()['/api/analyze-video'].post.operationId // 'analyzeVideo'
 */
export function openApiPaths(): Record<string, Obj> {
  return {
    '/api/analyze-video': {
      post: {
        operationId: 'analyzeVideo',
        tags: ['jobs'],
        summary: 'Create an analysis job',
        description: 'Uploads a video and starts an analysis job. Speech analytics are always produced; visual analytics only with `visual_analytics=true`. Returns at once with status pending; poll the status endpoint for the result.',
        parameters: [idempotencyKey],
        requestBody: multipart('AnalyzeVideoForm'),
        responses: { '200': jobCreated('The job was created.'), ...uploadErrors },
      },
    },
    '/api/process-video': {
      post: {
        operationId: 'processVideo',
        tags: ['jobs'],
        summary: 'Create a processing job',
        description: [
          'Processes an uploaded video, or a registered avatar (`video_id`), into a new video. Poll the status endpoint; a completed job has a signed `download_url`.',
          '',
          'Rules: (1) `video_id` and `file` together: the registered video is used and the file ignored. (2) `description` is used with voice_generator 0 or 1. (3)–(5) `audio` only with voice_generator 2, which then needs no description and ignores one; voice_generator 2 **without** `audio` is a 400. (6)–(7) `voice_id` and `credential_voice_generator` are used only with voice_generator 1 and ignored otherwise. (8) Booleans are the text `true` or `false`.',
        ].join('\n'),
        parameters: [idempotencyKey],
        requestBody: multipart('ProcessVideoForm'),
        responses: { '200': jobCreated('The job was created.'), ...uploadErrors, '404': err('AvatarNotFound') },
      },
    },
    '/api/register-avatar': {
      post: {
        operationId: 'registerAvatar',
        tags: ['avatars'],
        summary: 'Register a video for reuse',
        description: 'Stores a video under the API key. The returned `avt_` id can be sent as `video_id` to process-video by the same key (other keys get 404 `avatar_not_found`).',
        parameters: [idempotencyKey],
        requestBody: multipart('RegisterAvatarForm'),
        responses: { '200': json('AvatarRegistered', 'The avatar was stored.'), ...uploadErrors },
      },
    },
    '/api/avatars/{avatar_id}': {
      delete: {
        operationId: 'deleteAvatar',
        tags: ['avatars'],
        summary: 'Delete a registered avatar (extension)',
        description: 'Removes the stored video. Avatars are not subject to job retention: they stay until deleted. An unknown id or another key\'s avatar is 404 `not_found`.',
        parameters: [{ name: 'avatar_id', in: 'path', required: true, schema: { type: 'string', pattern: '^avt_[A-Za-z0-9_-]{22}$' } }],
        responses: { '204': { description: 'Deleted.' }, '404': err('NotFound'), ...apiErrors },
      },
    },
    '/api/status/{video_id}': { get: statusOperation('getStatus', 'Get a job\'s status', '') },
    '/status/{video_id}': { get: statusOperation('getStatusAlias', 'Get a job\'s status (alias)', 'Same operation as `GET /api/status/{video_id}`, at the path the client examples and changelog use.') },
    '/api/jobs/{video_id}': {
      delete: {
        operationId: 'deleteJob',
        tags: ['jobs'],
        summary: 'Delete a job now (extension)',
        description: 'Removes the job\'s upload, intermediates, output, result and record; a running job is stopped. The status endpoint then answers `not_found`. Without it, finished jobs are removed RETENTION_DAYS (default 7) after they end.',
        parameters: [{ name: 'video_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '204': { description: 'Deleted.' }, '404': err('NotFound'), ...apiErrors },
      },
    },
    '/api/uploads': {
      post: {
        operationId: 'createUpload',
        tags: ['uploads'],
        summary: 'Start a resumable upload (extension)',
        description: 'For files larger than one request body allows (e.g. 100 MB on Cloudflare Free/Pro) or unreliable networks: PUT the parts, complete, then send `file_id` instead of `file` to a job-creating endpoint. The upload belongs to this key.',
        responses: { '201': json('UploadCreated', 'The upload was started.'), ...apiErrors },
      },
    },
    '/api/uploads/{upload_id}': {
      get: {
        operationId: 'getUpload',
        tags: ['uploads'],
        summary: 'Parts received so far',
        parameters: [uploadParam],
        responses: { '200': json('UploadState', 'The upload state.'), '404': err('NotFound'), ...apiErrors },
      },
      delete: {
        operationId: 'abortUpload',
        tags: ['uploads'],
        summary: 'Abort an upload (or delete an unused completed file)',
        parameters: [uploadParam],
        responses: { '204': { description: 'Aborted.' }, '404': err('NotFound'), ...apiErrors },
      },
    },
    '/api/uploads/{upload_id}/parts/{n}': {
      put: {
        operationId: 'uploadPart',
        tags: ['uploads'],
        summary: 'Upload part n',
        description: 'The raw bytes of part n (1-based, at most 10 000). Every part but the last must be exactly `part_size` bytes; `Content-Length` is required. Re-sending a part replaces it.',
        parameters: [uploadParam, { name: 'n', in: 'path', required: true, schema: { type: 'integer', minimum: 1, maximum: 10000 } }],
        requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
        responses: {
          '200': { description: 'Stored.', content: { 'application/json': { schema: { $ref: '#/components/schemas/UploadPart' } } } },
          '400': err('BadRequest'), '404': err('NotFound'), '409': err('Conflict'), '413': err('PayloadTooLarge'), ...apiErrors,
        },
      },
    },
    '/api/uploads/{upload_id}/complete': {
      post: {
        operationId: 'completeUpload',
        tags: ['uploads'],
        summary: 'Assemble the parts into one file',
        description: 'Checks that parts 1…N are all there and full-sized, then returns the `file_id`. Plain text is refused (415). Completing twice returns the same answer.',
        parameters: [uploadParam],
        responses: { '200': json('UploadCompleted', 'The file is ready.'), '404': err('NotFound'), '409': err('Conflict'), '413': err('PayloadTooLarge'), '415': err('UnsupportedMediaType'), ...apiErrors },
      },
    },
    '/files/{key}': {
      get: {
        operationId: 'downloadFile',
        tags: ['files'],
        summary: 'Download a processed video (signed link)',
        description: 'The `download_url` of a completed processing job. A plain GET with no API key: the token in the query is the credential, bound to one file and one expiry (24 h by default, DOWNLOAD_URL_TTL_SEC). Supports a single byte `Range` (seekable playback).',
        security: PUBLIC,
        parameters: fileParams,
        responses: fileResponses(true),
      },
      head: {
        operationId: 'headFile',
        tags: ['files'],
        summary: 'Size and type of a processed video',
        description: 'As GET without the body.',
        security: PUBLIC,
        parameters: fileParams,
        responses: fileResponses(false),
      },
    },
    '/admin/keys': {
      post: {
        operationId: 'createApiKey',
        tags: ['admin'],
        summary: 'Issue an API key',
        description: 'Needs `Authorization: Bearer {ADMIN_TOKEN}`. The key is returned once; only its hash is stored. (`npm run keys` does the same locally.)',
        security: ADMIN,
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 100, description: 'Who the key is for (trimmed).' }, limits: { $ref: '#/components/schemas/KeyLimits' } } } } } },
        responses: { '201': json('KeyCreated', 'The key, shown once.'), '400': err('BadRequest'), '401': err('Unauthorized'), '503': err('NotConfigured') },
      },
      get: {
        operationId: 'listApiKeys',
        tags: ['admin'],
        summary: 'List API keys',
        description: 'Every key record (never the key itself), revoked ones included.',
        security: ADMIN,
        responses: {
          '200': { description: 'The keys.', content: { 'application/json': { schema: { type: 'object', required: ['keys'], properties: { keys: { type: 'array', items: { $ref: '#/components/schemas/KeyRecord' } } } } } } },
          '401': err('Unauthorized'),
          '503': err('NotConfigured'),
        },
      },
    },
    '/admin/keys/{key_id}': {
      delete: {
        operationId: 'revokeApiKey',
        tags: ['admin'],
        summary: 'Revoke an API key',
        description: 'The key stops authenticating at once; its record stays with `revoked_at` set. Revoking twice is harmless.',
        security: ADMIN,
        parameters: [{ name: 'key_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': json('KeyRecord', 'The revoked key.'), '401': err('Unauthorized'), '404': err('NotFound'), '503': err('NotConfigured') },
      },
    },
    '/healthz': {
      get: {
        operationId: 'health',
        tags: ['service'],
        summary: 'Liveness',
        security: PUBLIC,
        responses: { '200': { description: 'The Worker is up.', content: { 'application/json': { schema: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean', const: true } } } } } } },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        tags: ['service'],
        summary: 'This document',
        security: PUBLIC,
        responses: { '200': { description: 'OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
    '/docs': { get: { operationId: 'getDocs', tags: ['service'], summary: 'This document as a readable page', security: PUBLIC, responses: { '200': html('HTML reference, no external resources.') } } },
    '/': {
      get: {
        operationId: 'getWebApp',
        tags: ['service'],
        summary: 'Web page: upload, watch progress, see results',
        description: 'A browser page that keeps the API key in localStorage and calls the API above. No external resources; strict Content-Security-Policy.',
        security: PUBLIC,
        responses: { '200': html('The web page.') },
      },
    },
  };
}
