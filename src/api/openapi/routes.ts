/**
 * @module api/openapi/routes
 * Every route the app serves, once, as data: method, path, summary, credential, request form
 * (the contract's option schemas), replies by status (the contract's response schemas) and the
 * error answers it can give. `paths.ts` turns this table into the document's `paths` and forms.
 */
import { z } from 'zod';
import { KeyCreated, KeyRecord, KeyRequest } from '../../contract/keys.js';
import { JOB_STATUSES, MAX_STATUS_WAIT_SEC, StatusResponse } from '../../contract/jobs.js';
import { AvatarList, JobList, LIST_DEFAULT_LIMIT, LIST_KINDS, LIST_MAX_LIMIT } from '../../contract/lists.js';
import {
  AvatarRegistered,
  JobCreated,
  CompleteUploadRequest,
  UploadCompleted,
  UploadCreated,
  UploadPart,
  UploadState,
} from '../../contract/responses.js';
import { AnalysisOptions, AvatarChoice, ProcessFormOptions } from '../../contract/options.js';
import {
  WEBHOOK_URL_FIELD,
  WEBHOOK_URL_MAX_CHARS,
  WebhookDeliveries,
  WebhookSecret,
} from '../../contract/webhooks.js';
import type { ErrorResponseName } from './error-responses.js';
import type { FormDoc, TextField } from './forms.js';
import type { Schema } from './json-schema.js';

export type Method = 'get' | 'put' | 'post' | 'delete' | 'head';
/** `apiKey`: the document's default security (401, 429 and 500 follow); `admin`: the bearer token (401, 503); `public`: none. */
export type Auth = 'apiKey' | 'admin' | 'public';
export type Tag = 'jobs' | 'avatars' | 'uploads' | 'files' | 'admin' | 'service';

/** A body: JSON from a zod schema, or raw JSON Schemas by media type. */
export interface BodyDoc {
  json?: z.ZodType;
  content?: Record<string, Schema>;
}

export interface ReplyDoc extends BodyDoc {
  description: string;
  /** Headers beside X-Request-Id. */
  headers?: Record<string, Schema>;
}

export interface RouteDoc {
  method: Method;
  /** OpenAPI form: `{name}` for a path parameter, described in `PATH_PARAMS`. */
  path: string;
  operationId: string;
  tag: Tag;
  summary: string;
  description?: string;
  auth: Auth;
  /** Honours Idempotency-Key: the header parameter, and `Idempotent-Replayed` on success. */
  idempotent?: boolean;
  /** Query and header parameters (path parameters come from the path). */
  params?: Schema[];
  form?: FormDoc;
  body?: BodyDoc;
  replies: Record<number, ReplyDoc>;
  /** Error answers beside those `auth` implies. */
  errors?: ErrorResponseName[];
}

/** Every path parameter, by name. */
export const PATH_PARAMS: Record<string, Schema> = {
  video_id: {
    schema: { type: 'string' },
    description: 'The `vid_` id returned by analyze-video or process-video.',
  },
  avatar_id: { schema: { type: 'string', pattern: '^avt_[A-Za-z0-9_-]{22}$' } },
  upload_id: { schema: { type: 'string' }, description: 'The `upl_` id from `POST /api/uploads`.' },
  n: { schema: { type: 'integer', minimum: 1, maximum: 10000 } },
  key: {
    schema: { type: 'string' },
    description:
      'Storage key of the file; may contain `/` (e.g. `outputs/vid_…/video.mp4`). Take the whole link from `download_url`; do not build it.',
  },
  key_id: { schema: { type: 'string' } },
};

const UPLOAD_ERRORS: ErrorResponseName[] = [
  'BadRequest',
  'NotFound',
  'Conflict',
  'PayloadTooLarge',
  'BodyTimeout',
  'UnsupportedMediaType',
  'IdempotencyKeyReused',
];

const fileId = (description: string): TextField => ({
  name: 'file_id',
  schema: UploadCreated.shape.upload_id,
  description,
});
const FILE_ID = fileId(
  'Extension: a completed resumable upload (`POST /api/uploads` … `/complete`) of this key, instead of `file`. Sending both is 400 `conflicting_fields`; an unknown id is 404 `not_found`; an unfinished one is 409 `upload_conflict`. Used once: the job takes the file over.',
);

const WEBHOOK_URL: TextField = {
  name: WEBHOOK_URL_FIELD,
  schema: z.string().max(WEBHOOK_URL_MAX_CHARS).meta({ format: 'uri' }),
  description:
    'Extension: an http or https URL (at most 2,048 characters) that receives a signed POST when the job ends (`job.completed`, `job.failed`) or the avatar is registered (`avatar.registered`), in the Standard Webhooks format (see `webhooks`). Retried with backoff for 24 h until a 2xx comes within 10 s; redirects are not followed. In production, URLs that point at loopback, private, link-local, CGNAT, multicast or reserved addresses (as written, or as the name resolves) are refused. Anything else is a 400 `invalid_field` with `field: "webhook_url"`.',
};

const STATUS_WAIT_PARAM: Schema = {
  name: 'wait',
  in: 'query',
  required: false,
  schema: { type: 'integer', minimum: 0, maximum: MAX_STATUS_WAIT_SEC, default: 0 },
  description: `Extension (long-poll): while the job is \`pending\` or \`processing\`, hold the answer until its \`status\` or \`progress\` differs from what it was when the request arrived, or until this many seconds have passed, whichever comes first; then answer as usual. A finished job, or an id this key cannot see, answers at once. Whole seconds, 0–${MAX_STATUS_WAIT_SEC}; anything else is 400 \`invalid_request\` with \`field: "wait"\`.`,
};

const statusRoute = (path: string, operationId: string, summary: string, extra: string): RouteDoc => ({
  method: 'get',
  path,
  operationId,
  tag: 'jobs',
  summary,
  description: `Returns the state of an analysis or processing job. Poll it until status is completed or failed: either every 1–2 s, backing off, or (extension) as a long-poll with \`wait\`, which answers the moment the job's status or progress moves, so a client sees completion at once with a handful of requests. An id this API key did not create — unknown, malformed, or another key's — answers **HTTP 200 with status \`not_found\`**, never 404, so ids cannot be probed (such an answer never waits). Responses carry \`Cache-Control: private, no-store\`. ${extra}`,
  auth: 'apiKey',
  params: [STATUS_WAIT_PARAM],
  replies: { 200: { description: 'The job state.', json: StatusResponse } },
  errors: ['BadRequest'],
});

const LIST_PARAMS: Schema[] = [
  {
    name: 'limit',
    in: 'query',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: LIST_MAX_LIMIT, default: LIST_DEFAULT_LIMIT },
    description: `Entries per page, 1–${LIST_MAX_LIMIT}; anything else is 400 \`invalid_request\` with \`field: "limit"\`.`,
  },
  {
    name: 'cursor',
    in: 'query',
    required: false,
    schema: { type: 'string' },
    description: 'The `next_cursor` of the previous page; absent for the first page.',
  },
];

const captionRoute = (format: 'vtt' | 'srt', mediaType: string): RouteDoc => ({
  method: 'get',
  path: `/api/jobs/{video_id}/captions.${format}`,
  operationId: format === 'vtt' ? 'getCaptionsVtt' : 'getCaptionsSrt',
  tag: 'jobs',
  summary: `Captions of a completed job as ${format === 'vtt' ? 'WebVTT' : 'SubRip'} (extension)`,
  description:
    "Made when the job completed, from word times: an analysis job's transcript, or a processing job's new speech (synthesized from `description`, or the supplied `audio`) on its output's timeline; a processing job without new speech has none (404 `no_captions`). At most 2 lines of 42 characters and 7 s per cue, a new cue after each sentence end and each pause of 0.6 s or more; each cue starts at its first word and ends at its last. The speech's language (a Whisper code) is in `Content-Language`" +
    (format === 'vtt' ? " and in the file's `Language:` header." : '.'),
  auth: 'apiKey',
  replies: {
    200: {
      description: 'The caption file.',
      headers: { 'Content-Language': { schema: { type: 'string', example: 'en' } } },
      content: { [mediaType]: { type: 'string' } },
    },
  },
  errors: ['CaptionsNotFound', 'JobNotCompleted'],
});

const FILE_PARAMS: Schema[] = [
  {
    name: 'expires',
    in: 'query',
    required: true,
    schema: { type: 'string', pattern: '^\\d{1,12}$' },
    description: 'Expiry, Unix seconds.',
  },
  {
    name: 'token',
    in: 'query',
    required: true,
    schema: { type: 'string' },
    description: 'HMAC-SHA256 of key and expiry (base64url).',
  },
  {
    name: 'Range',
    in: 'header',
    required: false,
    schema: { type: 'string', example: 'bytes=0-1023' },
    description:
      'One `bytes=start-end`, `bytes=start-` or `bytes=-suffix` range → 206. Multi-range or malformed ranges are ignored (whole file, 200).',
  },
];
const FILE_HEADERS: Record<string, Schema> = {
  'Accept-Ranges': { schema: { type: 'string', const: 'bytes' } },
  'Content-Length': { schema: { type: 'integer' } },
  'Content-Range': { schema: { type: 'string' }, description: 'With 206: `bytes start-end/size`.' },
  ETag: { schema: { type: 'string' } },
  'Content-Disposition': {
    schema: { type: 'string' },
    description: '`attachment; filename="vid_…-video.mp4"`.',
  },
};
const fileReplies = (withBody: boolean): Record<number, ReplyDoc> => {
  const content = withBody ? { 'video/mp4': { type: 'string', contentMediaType: 'video/mp4' } } : undefined;
  return {
    200: { description: 'The whole file.', headers: FILE_HEADERS, content },
    206: { description: 'The requested range.', headers: FILE_HEADERS, content },
  };
};
const FILE_ERRORS: ErrorResponseName[] = ['LinkRejected', 'NotFound', 'RangeNotSatisfiable', 'NotConfigured'];

const html = (description: string): ReplyDoc => ({
  description,
  content: { 'text/html': { type: 'string' } },
});

export const ROUTES: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/analyze-video',
    operationId: 'analyzeVideo',
    tag: 'jobs',
    summary: 'Create an analysis job',
    description:
      'Uploads a video and starts an analysis job. Speech analytics are always produced; visual analytics only with `visual_analytics=true`. Returns at once with status pending; poll the status endpoint for the result.',
    auth: 'apiKey',
    idempotent: true,
    form: {
      component: 'AnalyzeVideoForm',
      description:
        'multipart/form-data. Unknown fields are a 400 `invalid_field` naming the field; a field sent twice is a 400 `invalid_field`. An `api_key` form field is ignored (send the key in the header or query).',
      required: ['file'],
      parts: [
        {
          name: 'file',
          media: 'video',
          description: 'Video to analyze, any common container or codec.',
          withUploadRule: true,
        },
        FILE_ID,
        WEBHOOK_URL,
        AnalysisOptions,
      ],
    },
    replies: { 200: { description: 'The job was created.', json: JobCreated } },
    errors: UPLOAD_ERRORS,
  },
  {
    method: 'post',
    path: '/api/process-video',
    operationId: 'processVideo',
    tag: 'jobs',
    summary: 'Create a processing job',
    description: [
      "Processes an uploaded video, or a registered avatar (`video_id`), into a new video: an MP4 (H.264 + AAC, faststart) at the source's size (up to 1920 px a side) and frame rate (up to 60 fps), with the source's colour description (range, primaries, transfer, matrix: an HDR HLG or PQ source stays HDR-tagged, in 8 bits, not tone-mapped). Poll the status endpoint; a completed job has a signed `download_url`.",
      '',
      'Rules: (1) `video_id` and `file` together: the registered video is used and the file ignored. (2) `description` is used with voice_generator 0 or 1. (3)–(5) `audio` only with voice_generator 2, which then needs no description and ignores one; voice_generator 2 **without** `audio` is a 400. (6)–(7) `voice_id` and `credential_voice_generator` are used only with voice_generator 1 and ignored otherwise. (8) Booleans are the text `true` or `false`.',
    ].join('\n'),
    auth: 'apiKey',
    idempotent: true,
    form: {
      component: 'ProcessVideoForm',
      description:
        'multipart/form-data. Either `file` or `video_id` (a registered avatar) is required, else 400 `missing_file`. Unknown fields and repeated fields are a 400 `invalid_field` naming the field.',
      parts: [
        {
          name: 'file',
          media: 'video',
          description: 'Video to process. Ignored (and not kept) when `video_id` is also sent.',
          withUploadRule: true,
        },
        FILE_ID,
        WEBHOOK_URL,
        AvatarChoice,
        ProcessFormOptions,
        {
          name: 'audio',
          media: 'audio',
          description:
            'Speech for the output video. Allowed only with voice_generator 2 (else 400 `invalid_field`, field audio). Same upload rules as `file`.',
        },
      ],
    },
    replies: { 200: { description: 'The job was created.', json: JobCreated } },
    errors: UPLOAD_ERRORS.map((e) => (e === 'NotFound' ? 'AvatarNotFound' : e)),
  },
  {
    method: 'post',
    path: '/api/register-avatar',
    operationId: 'registerAvatar',
    tag: 'avatars',
    summary: 'Register a video for reuse',
    description:
      'Stores a video under the API key. The returned `avt_` id can be sent as `video_id` to process-video by the same key (other keys get 404 `avatar_not_found`).',
    auth: 'apiKey',
    idempotent: true,
    form: {
      component: 'RegisterAvatarForm',
      description: 'multipart/form-data with `file` (or `file_id`). Other fields are a 400 `invalid_field`.',
      required: ['file'],
      parts: [
        { name: 'file', media: 'video', description: 'Video to store for reuse.', withUploadRule: true },
        fileId('Extension: a completed resumable upload of this key, instead of `file`.'),
        WEBHOOK_URL,
      ],
    },
    replies: { 200: { description: 'The avatar was stored.', json: AvatarRegistered } },
    errors: UPLOAD_ERRORS,
  },
  {
    method: 'get',
    path: '/api/avatars',
    operationId: 'listAvatars',
    tag: 'avatars',
    summary: "List this key's avatars, newest first (extension)",
    description:
      'Registered avatars of this API key, newest first, a page at a time (`next_cursor`). Deleted avatars are absent.',
    auth: 'apiKey',
    params: LIST_PARAMS,
    replies: { 200: { description: 'One page of avatars.', json: AvatarList } },
    errors: ['BadRequest'],
  },
  {
    method: 'delete',
    path: '/api/avatars/{avatar_id}',
    operationId: 'deleteAvatar',
    tag: 'avatars',
    summary: 'Delete a registered avatar (extension)',
    description:
      "Removes the stored video. Avatars are not subject to job retention: they stay until deleted. An unknown id or another key's avatar is 404 `not_found`.",
    auth: 'apiKey',
    replies: { 204: { description: 'Deleted.' } },
    errors: ['NotFound'],
  },
  statusRoute('/api/status/{video_id}', 'getStatus', "Get a job's status", ''),
  statusRoute(
    '/status/{video_id}',
    'getStatusAlias',
    "Get a job's status (alias)",
    'Same operation as `GET /api/status/{video_id}`, at the path the client examples and changelog use.',
  ),
  {
    method: 'delete',
    path: '/api/jobs/{video_id}',
    operationId: 'deleteJob',
    tag: 'jobs',
    summary: 'Delete a job now (extension)',
    description:
      "Removes the job's upload, intermediates, output, result and record; a running job is stopped. The status endpoint then answers `not_found`. Without it, finished jobs are removed RETENTION_DAYS (default 7) after they end.",
    auth: 'apiKey',
    replies: { 204: { description: 'Deleted.' } },
    errors: ['NotFound'],
  },
  {
    method: 'get',
    path: '/api/jobs',
    operationId: 'listJobs',
    tag: 'jobs',
    summary: "List this key's jobs, newest first (extension)",
    description:
      "Analysis and processing jobs of this API key only, newest first, a page at a time: follow `next_cursor` until it is null. Deleted jobs, and jobs past their retention, are absent. A running job shows its current status and progress. Stays fast for any number of jobs: each page is read from an index of the key's jobs in the order of the list.",
    auth: 'apiKey',
    params: [
      ...LIST_PARAMS,
      {
        name: 'status',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: [...JOB_STATUSES] },
        description: 'Only jobs with this status.',
      },
      {
        name: 'kind',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: [...LIST_KINDS] },
        description: 'Only jobs of this kind.',
      },
    ],
    replies: { 200: { description: 'One page of jobs.', json: JobList } },
    errors: ['BadRequest'],
  },
  captionRoute('vtt', 'text/vtt'),
  captionRoute('srt', 'application/x-subrip'),
  {
    method: 'get',
    path: '/api/jobs/{video_id}/webhooks',
    operationId: 'listWebhookDeliveries',
    tag: 'jobs',
    summary: 'The webhook deliveries of a job or avatar (extension)',
    description:
      'One entry per event (`job.completed`, `job.failed`, `avatar.registered`) of a job or avatar created with `webhook_url`: its `webhook-id`, state, every attempt (time, the receiver’s status code or the error, duration) and the next attempt of a pending one. `video_id` may also be an `avt_` id.',
    auth: 'apiKey',
    replies: { 200: { description: 'The deliveries, oldest first.', json: WebhookDeliveries } },
    errors: ['NotFound'],
  },
  {
    method: 'get',
    path: '/api/webhooks/secret',
    operationId: 'getWebhookSecret',
    tag: 'jobs',
    summary: "This key's webhook signing secret (extension)",
    description:
      'Made on first use. Verify each delivery with it (any Standard Webhooks library: `new Webhook(secret).verify(body, headers)`).',
    auth: 'apiKey',
    replies: { 200: { description: 'The secret.', json: WebhookSecret } },
  },
  {
    method: 'post',
    path: '/api/webhooks/secret/rotate',
    operationId: 'rotateWebhookSecret',
    tag: 'jobs',
    summary: 'Replace the webhook signing secret (extension)',
    description:
      'Makes a new secret. For 24 h deliveries carry two signatures (the new secret’s and the old one’s, space-separated), so receivers can switch without losing any.',
    auth: 'apiKey',
    replies: { 200: { description: 'The new secret.', json: WebhookSecret } },
  },
  {
    method: 'post',
    path: '/api/uploads',
    operationId: 'createUpload',
    tag: 'uploads',
    summary: 'Start a resumable upload (extension)',
    description:
      'For files larger than one request body allows (e.g. 100 MB on Cloudflare Free/Pro) or unreliable networks: PUT the parts, complete, then send `file_id` instead of `file` to a job-creating endpoint. The upload belongs to this key. A key holds at most UPLOAD_MAX_SESSIONS uploads (default 10; open, or completed and not yet used): beyond, 429 `rate_limited` with reason `open_uploads`.',
    auth: 'apiKey',
    replies: { 201: { description: 'The upload was started.', json: UploadCreated } },
  },
  {
    method: 'get',
    path: '/api/uploads/{upload_id}',
    operationId: 'getUpload',
    tag: 'uploads',
    summary: 'Parts received so far',
    auth: 'apiKey',
    replies: { 200: { description: 'The upload state.', json: UploadState } },
    errors: ['NotFound'],
  },
  {
    method: 'delete',
    path: '/api/uploads/{upload_id}',
    operationId: 'abortUpload',
    tag: 'uploads',
    summary: 'Abort an upload (or delete an unused completed file)',
    auth: 'apiKey',
    replies: { 204: { description: 'Aborted.' } },
    errors: ['NotFound'],
  },
  {
    method: 'put',
    path: '/api/uploads/{upload_id}/parts/{n}',
    operationId: 'uploadPart',
    tag: 'uploads',
    summary: 'Upload part n',
    description:
      'The raw bytes of part n (1-based, at most 10 000). Every part but the last must be exactly `part_size` bytes; `Content-Length` is required. Re-sending a part replaces it. The parts of all uploads of one key hold at most UPLOAD_MAX_HELD_BYTES (default twice MAX_UPLOAD_BYTES): beyond, 429 `rate_limited` with reason `upload_bytes`.',
    auth: 'apiKey',
    body: {
      content: {
        'application/octet-stream': { type: 'string', contentMediaType: 'application/octet-stream' },
      },
    },
    replies: { 200: { description: 'Stored.', json: UploadPart } },
    errors: ['BadRequest', 'NotFound', 'Conflict', 'PayloadTooLarge', 'BodyTimeout'],
  },
  {
    method: 'post',
    path: '/api/uploads/{upload_id}/complete',
    operationId: 'completeUpload',
    tag: 'uploads',
    summary: 'Assemble the parts into one file',
    description:
      'Checks that parts 1…N are all there and full-sized, then returns the `file_id`. Plain text is refused (415). Completing twice returns the same answer. An optional body `{"parts": N}` names the last part: any part above it (a stray upload) is left out instead of making the upload uncompletable.',
    auth: 'apiKey',
    body: { json: CompleteUploadRequest },
    replies: { 200: { description: 'The file is ready.', json: UploadCompleted } },
    errors: ['BadRequest', 'NotFound', 'Conflict', 'PayloadTooLarge', 'UnsupportedMediaType'],
  },
  {
    method: 'get',
    path: '/files/{key}',
    operationId: 'downloadFile',
    tag: 'files',
    summary: 'Download a processed video (signed link)',
    description:
      'The `download_url` of a completed processing job. A plain GET with no API key: the token in the query is the credential, bound to one file and one expiry (24 h by default, DOWNLOAD_URL_TTL_SEC). Supports a single byte `Range` (seekable playback).',
    auth: 'public',
    params: FILE_PARAMS,
    replies: fileReplies(true),
    errors: FILE_ERRORS,
  },
  {
    method: 'head',
    path: '/files/{key}',
    operationId: 'headFile',
    tag: 'files',
    summary: 'Size and type of a processed video',
    description: 'As GET without the body.',
    auth: 'public',
    params: FILE_PARAMS,
    replies: fileReplies(false),
    errors: FILE_ERRORS,
  },
  {
    method: 'post',
    path: '/admin/keys',
    operationId: 'createApiKey',
    tag: 'admin',
    summary: 'Issue an API key',
    description:
      'Needs `Authorization: Bearer {ADMIN_TOKEN}`. The key is returned once; only its hash is stored. (`npm run keys` does the same locally.)',
    auth: 'admin',
    body: { json: KeyRequest },
    replies: { 201: { description: 'The key, shown once.', json: KeyCreated } },
    errors: ['BadRequest'],
  },
  {
    method: 'get',
    path: '/admin/keys',
    operationId: 'listApiKeys',
    tag: 'admin',
    summary: 'List API keys',
    description: 'Every key record (never the key itself), revoked ones included.',
    auth: 'admin',
    replies: { 200: { description: 'The keys.', json: z.object({ keys: z.array(KeyRecord) }) } },
  },
  {
    method: 'delete',
    path: '/admin/keys/{key_id}',
    operationId: 'revokeApiKey',
    tag: 'admin',
    summary: 'Revoke an API key',
    description:
      'The key stops authenticating at once; its record stays with `revoked_at` set. Revoking twice is harmless.',
    auth: 'admin',
    replies: { 200: { description: 'The revoked key.', json: KeyRecord } },
    errors: ['NotFound'],
  },
  {
    method: 'get',
    path: '/healthz',
    operationId: 'health',
    tag: 'service',
    summary: 'Liveness',
    description:
      'Answers at once. The first call an isolate serves also starts loading what its first analysis needs (the speech analytics, the VAD, the edge audio decoder), in the background, so that job does not wait for them.',
    auth: 'public',
    replies: { 200: { description: 'The Worker is up.', json: z.object({ ok: z.literal(true) }) } },
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'service',
    summary: 'This document',
    auth: 'public',
    replies: {
      200: { description: 'OpenAPI 3.1 document.', content: { 'application/json': { type: 'object' } } },
    },
  },
  {
    method: 'get',
    path: '/docs',
    operationId: 'getDocs',
    tag: 'service',
    summary: 'This document as a readable page',
    auth: 'public',
    replies: { 200: html('HTML reference, no external resources.') },
  },
  {
    method: 'get',
    path: '/',
    operationId: 'getWebApp',
    tag: 'service',
    summary: 'Web page: upload, watch progress, see results',
    description:
      'A browser page that keeps the API key in localStorage and calls the API above. No external resources; strict Content-Security-Policy.',
    auth: 'public',
    replies: { 200: html('The web page.') },
  },
];
