/**
 * @module storage/upload-limit
 * The largest file an upload may store: `MAX_UPLOAD_BYTES`, default 2 GiB. One definition for
 * every upload route and the OpenAPI document, here rather than in a route so that no route
 * imports another (`api/uploads.ts` and `api/analyze.ts` would form an import cycle).
 */
import { numberVar } from '../shared/env.js';

export const DEFAULT_MAX_UPLOAD_BYTES = 2 * 1024 ** 3;

/**
 * The configured limit in bytes (an empty or invalid value falls back to the default).
 * @example
 * maxUploadBytes({ MAX_UPLOAD_BYTES: '' }) // 2147483648
 */
export const maxUploadBytes = (env: { MAX_UPLOAD_BYTES?: string } | undefined) =>
  numberVar(env?.MAX_UPLOAD_BYTES, DEFAULT_MAX_UPLOAD_BYTES);
