/**
 * @module api/openapi/document
 * The OpenAPI 3.1 document of the service, assembled from the contract, the route table
 * (`routes.ts`) and the error table. Pure: no I/O, safe to call per request.
 */
import { ERROR_CODES } from '../../contract/errors.js';
import { DEFAULT_MAX_UPLOAD_BYTES } from '../../storage/upload-limit.js';
import { MAX_DESCRIPTION_CHARS } from '../../contract/options.js';
import { ERROR_CODE_DOCS } from './errors.js';
import { errorResponses } from './error-responses.js';
import { formComponents, openApiPaths } from './paths.js';
import { webhookDocs } from './webhooks.js';
import { CONTRACT_COMPONENTS, componentSchemas } from './schemas.js';

export interface OpenApiOptions {
  /** `servers[0].url`; default `/` (the origin serving the document). */
  serverUrl?: string;
  /** Upload limit stated in the document; default 2 GiB. */
  maxUploadBytes?: number;
}

const INTRO = (
  maxUploadBytes: number,
) => `Asynchronous video analysis and processing. Create a job with one of the POST endpoints, then poll \`GET /api/status/{video_id}\` until status is \`completed\` or \`failed\`.

**Authentication.** Every \`/api/*\` and \`/status/*\` request carries the API key in the \`X-API-Key\` header or the \`api_key\` query parameter. A missing, unknown or revoked key is 401 \`unauthorized\`. More than 60 such failures a minute from one client address (UNAUTH_RATE_LIMIT_PER_MIN) → 429 \`rate_limited\` (reason \`unauthenticated_per_minute\`) for every request from it until the minute ends. Keys are issued with \`npm run keys\` or the admin API (\`Authorization: Bearer {ADMIN_TOKEN}\`). Download links (\`/files/…\`) need no key.

**Errors.** Every 4xx/5xx body is \`{"error":{"code","message","field"?},"request_id"}\`; \`field\` names the form field at fault. Every response carries \`X-Request-Id\` (an incoming one of 8–128 characters \`[A-Za-z0-9._-]\` is kept).

**Limits.** Upload: ${maxUploadBytes} bytes per file (MAX_UPLOAD_BYTES, default 2 GiB) → 413; larger than one request body allows: use a resumable upload. \`description\`: ${MAX_DESCRIPTION_CHARS} characters. Per key: 120 requests/min and 600 status polls/min, 5 unfinished jobs at once (defaults; per-key overrides) → 429 \`rate_limited\` with \`Retry-After\`; every \`/api\` answer carries \`RateLimit-*\` headers. Download links live 24 h (DOWNLOAD_URL_TTL_SEC); each status poll returns a fresh one. Finished jobs are kept 7 days (RETENTION_DAYS), then answer \`not_found\`; avatars do not expire.

**Decisions where the specification is silent.** Unknown ids and other keys' ids answer HTTP 200 with status \`not_found\`. Avatars have \`avt_\` ids, jobs \`vid_\` ids; an avatar is usable only by the key that registered it. voice_generator 2 without \`audio\` is a 400. Unknown form fields are a 400 naming the field; a repeated field is a 400. Plain-text uploads are refused with 415 at upload; other bytes that are not media become a failed job with an \`error_message\`. Results may carry a \`warnings\` array (extension) saying why a section is thinner than usual, and name the speech recogniser in \`speech_engine\` (extension: Whisper by default, pocketsphinx as the fallback).

**Versions.** v2.2 (current, January 2025): \`eye_contact_correction\`, \`lip_sync_correction_model\`, structured \`error\` and \`request_id\`. v1.5: \`voice_generator\`, \`voice_id\`, \`progress\`. v1.0: process-video and status.`;

/**
 * Builds the OpenAPI 3.1 document.
 * @example
 * const doc = openApiDocument({ serverUrl: 'https://api.example.com' });
 * Object.keys(doc.paths); // ['/api/analyze-video', ...]
 */
export function openApiDocument(options: OpenApiOptions = {}): Record<string, any> {
  const { serverUrl = '/', maxUploadBytes = DEFAULT_MAX_UPLOAD_BYTES } = options;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Video Analysis and Processing API',
      version: '2.2',
      description: INTRO(maxUploadBytes),
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKeyHeader: [] }, { apiKeyQuery: [] }],
    tags: [
      { name: 'jobs', description: 'Create jobs and poll their status.' },
      { name: 'avatars', description: 'Videos stored once and reused by id.' },
      { name: 'uploads', description: 'Resumable uploads for large files (extension).' },
      { name: 'files', description: 'Signed downloads of processed videos.' },
      { name: 'admin', description: 'API key management (admin token).' },
      { name: 'service', description: 'Health, this document, the web page.' },
    ],
    paths: openApiPaths(CONTRACT_COMPONENTS),
    webhooks: webhookDocs(),
    components: {
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The API key.' },
        apiKeyQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'api_key',
          description: 'The API key as a query parameter (it is removed from access logs).',
        },
        adminBearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'The ADMIN_TOKEN secret; admin routes only.',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
          description:
            'Makes a retry safe: a repeat of the same request (same fields and file bytes) within 24 h (IDEMPOTENCY_TTL_SEC) gets the first answer (`Idempotent-Replayed: true`) and creates nothing new; a different request with the same key is 422; a repeat while the first still runs is 409. Failed requests are not remembered.',
        },
      },
      headers: {
        'X-Request-Id': {
          description: 'Id of this request, also in error bodies as `request_id`.',
          schema: { type: 'string' },
        },
      },
      schemas: { ...componentSchemas(), ...formComponents(maxUploadBytes) },
      responses: errorResponses(),
    },
    'x-error-codes': ERROR_CODE_DOCS.map((e) => ({ ...e, status: ERROR_CODES[e.code] })),
  };
}
