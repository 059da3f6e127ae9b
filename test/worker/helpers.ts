import type { ProcessingReport } from '../../src/contract/jobs.js';
import { env, SELF } from 'cloudflare:test';
import { expect, vi } from 'vitest';

export const ALICE = 'test-key-alice';
export const BOB = 'test-key-bob';
export const BASE = 'http://api.test';

export async function fixture(path: string): Promise<Uint8Array> {
  const res = await fetch(`${env.FIXTURES_URL}/${path}`);
  if (!res.ok) throw new Error(`fixture ${path} missing (${res.status})`);
  return new Uint8Array(await res.arrayBuffer());
}

export type Field = string | { bytes: Uint8Array; filename?: string; type?: string };

export function form(fields: Record<string, Field>): FormData {
  const fd = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') fd.append(name, value);
    else
      fd.append(
        name,
        new Blob([value.bytes], { type: value.type ?? 'application/octet-stream' }),
        value.filename ?? 'upload.bin',
      );
  }
  return fd;
}

export function call(path: string, init: RequestInit & { key?: string | null } = {}): Promise<Response> {
  const { key = ALICE, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (key) headers.set('x-api-key', key);
  return SELF.fetch(`${BASE}${path}`, { ...rest, headers });
}

export const post = (path: string, fields: Record<string, Field>, key: string | null = ALICE) =>
  call(path, { method: 'POST', body: form(fields), key });

export interface Status {
  status: string;
  progress: number;
  download_url: string | null;
  result: Record<string, unknown> | null;
  error_message: string | null;
  processing_report?: ProcessingReport;
}

export async function status(id: string, key = ALICE): Promise<Status> {
  const res = await call(`/api/status/${id}`, { key });
  expect(res.status).toBe(200);
  return res.json<Status>();
}

/** Polls until the job leaves pending/processing; checks progress never goes back. */
export async function waitForJob(id: string, key = ALICE, timeout = 80_000): Promise<Status> {
  let last = -1;
  let final: Status | null = null;
  await vi.waitUntil(
    async () => {
      const s = await status(id, key);
      expect(s.progress).toBeGreaterThanOrEqual(last);
      last = s.progress;
      if (s.status === 'completed' || s.status === 'failed') final = s;
      return final !== null;
    },
    { timeout, interval: 250 },
  );
  return final!;
}

export async function expectError(res: Response, status: number, code: string, field?: string) {
  expect(res.status).toBe(status);
  const body = await res.json<{
    error: { code: string; message: string; field?: string };
    request_id: string;
  }>();
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(5);
  expect(body.request_id).toMatch(/\S{8,}/);
  expect(res.headers.get('x-request-id')).toBe(body.request_id);
  if (field) expect(body.error.field).toBe(field);
  return body;
}

/** The tenant id of a development key, as `auth/keys.ts` derives it. */
export async function devTenant(key: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)));
  return `dev_${[...digest]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, 16)}`;
}
