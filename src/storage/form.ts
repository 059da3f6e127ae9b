/**
 * @module storage/form
 * Reads a job-creating multipart request: file parts are streamed into R2 as they arrive,
 * text fields are collected (small). If anything fails, every object written is deleted.
 */
import { ApiError } from '../contract/errors.js';
import type { SourceRef } from '../contract/jobs.js';
import { bodyTimeoutAsApiError, type BodyPace } from './body-pace.js';
import { boundaryOf, FieldTooLongError, MultipartError, parseMultipart } from './multipart.js';
import { streamToR2 } from './r2-upload.js';
import { looksLikeText } from './sniff.js';
import { streamingSha256 } from '../shared/digest.js';

export const MAX_TEXT_FIELD_BYTES = 64 * 1024;

export interface FormSpec {
  /** File fields and the R2 key each is stored under. */
  files: Record<string, string>;
  /** Accepted text fields. Others are rejected naming the field. */
  fields: readonly string[];
  maxFileBytes: number;
  /** Hash each file's bytes as they stream by (for Idempotency-Key fingerprints). Default false. */
  hash?: boolean;
  /** The pace the body must keep (408 `body_timeout` below it); default: none. */
  pace?: BodyPace;
}

export interface ParsedForm {
  files: Record<string, SourceRef>;
  fields: Record<string, string>;
  /** SHA-256 (hex) of each file, when `spec.hash`. */
  digests: Record<string, string>;
}

async function* tap(
  chunks: AsyncIterable<Uint8Array>,
  onChunk: (chunk: Uint8Array) => Promise<void>,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    await onChunk(chunk);
    yield chunk;
  }
}

/** Fields any request may carry that mean nothing to the form (auth is read elsewhere). */
const IGNORED_FIELDS = new Set(['api_key']);

export async function readUploadForm(
  bucket: R2Bucket,
  request: Request,
  spec: FormSpec,
): Promise<ParsedForm> {
  const boundary = boundaryOf(request.headers.get('content-type'));
  if (!boundary)
    throw new ApiError('invalid_multipart', 'the request body must be multipart/form-data with a boundary');
  if (!request.body) throw new ApiError('invalid_multipart', 'the request has no body');
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > spec.maxFileBytes + 1024 * 1024) {
    throw new ApiError(
      'payload_too_large',
      `the request is larger than the limit of ${spec.maxFileBytes} bytes`,
      {
        limit_bytes: spec.maxFileBytes,
      },
    );
  }

  const files: Record<string, SourceRef> = {};
  const fields: Record<string, string> = {};
  const digests: Record<string, string> = {};
  try {
    for await (const part of parseMultipart(request.body, boundary, { pace: spec.pace })) {
      const seen = part.name in files || part.name in fields;
      if (seen)
        throw new ApiError('invalid_field', `field "${part.name}" is sent more than once`, {
          field: part.name,
        });
      const key = spec.files[part.name];
      if (key !== undefined) {
        if (part.filename === null && part.contentType === null) {
          // A text value where a file belongs (curl -F file=x instead of file=@x).
          throw new ApiError('invalid_field', `field "${part.name}" must be a file upload`, {
            field: part.name,
          });
        }
        const hasher = spec.hash ? streamingSha256() : null;
        const body = hasher ? tap(part.body, (chunk) => hasher.update(chunk)) : part.body;
        const stored = await streamToR2(bucket, key, body, {
          maxBytes: spec.maxFileBytes,
          contentType: part.contentType,
        });
        files[part.name] = {
          key,
          size: stored.size,
          filename: part.filename,
          content_type: part.contentType,
        };
        if (hasher) digests[part.name] = await hasher.hex();
        if (stored.size === 0)
          throw new ApiError('empty_file', `field "${part.name}" is an empty file`, { field: part.name });
        if (looksLikeText(stored.head)) {
          throw new ApiError(
            'unsupported_media_type',
            `field "${part.name}" holds text, not audio or video`,
            {
              field: part.name,
            },
          );
        }
      } else if (spec.fields.includes(part.name)) {
        fields[part.name] = await part.text(MAX_TEXT_FIELD_BYTES);
      } else if (IGNORED_FIELDS.has(part.name)) {
        await part.skip();
      } else {
        throw new ApiError('invalid_field', `unknown field "${part.name}"`, { field: part.name });
      }
    }
  } catch (err) {
    await Promise.all(Object.values(files).map((f) => bucket.delete(f.key).catch(() => {})));
    if (err instanceof FieldTooLongError)
      throw new ApiError(
        'invalid_field',
        `"${err.field}" is longer than ${err.maxBytes} bytes`,
        { field: err.field },
        { cause: err },
      );
    if (err instanceof MultipartError)
      throw new ApiError('invalid_multipart', err.message, {}, { cause: err });
    throw bodyTimeoutAsApiError(err);
  }
  return { files, fields, digests };
}
