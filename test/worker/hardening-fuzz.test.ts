/**
 * Bad input, fuzzed with a seeded PRNG (change SEED to explore; a failure names its case and seed):
 * every case is a clear 4xx with the structured body, never a 5xx, nothing is stored, and the
 * service still answers afterwards.
 */
import { env, SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { FUZZ_SEED, prng, type Rng } from '../support/prng.js';
import { ERROR_CODES } from '../../src/contract/errors.js';
import { BASE, call, fixture } from './helpers.js';

const SEED = FUZZ_SEED;
const ENDPOINTS = ['/api/analyze-video', '/api/process-video', '/api/register-avatar'] as const;

const enc = new TextEncoder();
let key = '';

async function stored(): Promise<string[]> {
  const keys: string[] = [];
  for (const prefix of ['uploads/', 'avatars/', 'resumable/', 'work/', 'outputs/', 'results/']) {
    keys.push(...(await env.MEDIA.list({ prefix })).objects.map((o) => o.key));
  }
  return keys.sort();
}

function send(
  path: string,
  body: BodyInit | null,
  contentType: string | null,
  method = 'POST',
): Promise<Response> {
  const headers = new Headers({ 'x-api-key': key });
  if (contentType !== null) headers.set('content-type', contentType);
  return SELF.fetch(`${BASE}${path}`, { method, body, headers });
}

/** A clear 4xx with the spec's error body. */
async function expectClear4xx(res: Response, label: string): Promise<{ code: string; status: number }> {
  const text = await res.text();
  expect(res.status, `${label}: ${text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${label}: ${text.slice(0, 200)}`).toBeLessThan(500);
  const body = JSON.parse(text) as {
    error: { code: keyof typeof ERROR_CODES; message: string };
    request_id: string;
  };
  expect(ERROR_CODES[body.error.code], label).toBe(res.status);
  expect(body.error.message.length, label).toBeGreaterThan(5);
  expect(body.request_id, label).toMatch(/\S{8,}/);
  return { code: body.error.code, status: res.status };
}

/** A multipart body by hand, so it can be broken in ways FormData refuses to produce. */
function multipart(
  boundary: string,
  parts: Array<{ headers: string; body: Uint8Array | string }>,
  close = true,
): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (const p of parts) {
    chunks.push(enc.encode(`--${boundary}\r\n${p.headers}\r\n\r\n`));
    chunks.push(typeof p.body === 'string' ? enc.encode(p.body) : p.body);
    chunks.push(enc.encode('\r\n'));
  }
  if (close) chunks.push(enc.encode(`--${boundary}--\r\n`));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
const fileHeaders = (name: string, filename = 'clip.mp4') =>
  `Content-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: video/mp4`;
const fieldHeaders = (name: string) => `Content-Disposition: form-data; name="${name}"`;
/** Binary, so the text sniffer never refuses it first. */
const binary = (r: ReturnType<typeof prng>, n: number) => {
  const b = r.bytes(n);
  b[0] = 0;
  return b;
};

beforeAll(async () => {
  const res = await call('/admin/keys', {
    key: null,
    method: 'POST',
    headers: { authorization: 'Bearer test-admin-token', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'fuzz', limits: { requests_per_minute: 100_000, concurrent_jobs: 1000 } }),
  });
  key = (await res.json<{ key: string }>()).key;
});

describe(`bad input fuzz (seed ${SEED})`, () => {
  it('should refuse random bodies under any content type', async () => {
    const r = prng(SEED);
    const before = await stored();
    for (let i = 0; i < 40; i++) {
      const boundary = r.pick(['xyz', '----b' + r.int(0, 1e9), 'a'.repeat(r.int(1, 70))]);
      const type = r.pick([
        `multipart/form-data; boundary=${boundary}`,
        `multipart/form-data; boundary="${boundary}"`,
        'multipart/form-data',
        `multipart/form-data; boundary=${'b'.repeat(201)}`,
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        null,
      ]);
      const body = r.next() < 0.2 ? null : r.bytes(r.int(0, 6000));
      const path = r.pick(ENDPOINTS);
      await expectClear4xx(await send(path, body, type), `random #${i} ${path} ${type}`);
    }
    expect(await stored()).toEqual(before);
  });

  it('should refuse truncated bodies at random points, keeping nothing', async () => {
    const r = prng(SEED + 1);
    const before = await stored();
    for (let i = 0; i < 30; i++) {
      const path = r.pick(ENDPOINTS);
      const boundary = `fuzz${r.int(0, 1e6)}`;
      const parts: Array<{ headers: string; body: Uint8Array | string }> = [
        { headers: fileHeaders('file'), body: binary(r, r.int(1, 200_000)) },
      ];
      if (path === '/api/process-video')
        parts.push({ headers: fieldHeaders('blur_background'), body: 'false' });
      const whole = multipart(boundary, parts);
      // Cut before the closing "--": the body can never be complete.
      const cut = r.int(0, whole.length - `--${boundary}--\r\n`.length - 1);
      const res = await send(path, whole.slice(0, cut), `multipart/form-data; boundary=${boundary}`);
      const { code } = await expectClear4xx(res, `truncated #${i} at ${cut}/${whole.length} ${path}`);
      expect(['invalid_multipart', 'missing_file']).toContain(code);
    }
    expect(await stored()).toEqual(before);
  });

  it('should refuse huge, repeated, unknown and badly typed fields', async () => {
    const r = prng(SEED + 2);
    const before = await stored();
    const video = await fixture('generated/tone-3s.mp4');
    const b = 'fuzzfields';
    const type = `multipart/form-data; boundary=${b}`;
    const cases: Array<[string, string, Array<{ headers: string; body: Uint8Array | string }>, string]> = [
      [
        'huge text field',
        '/api/process-video',
        [
          { headers: fileHeaders('file'), body: video },
          { headers: fieldHeaders('description'), body: 'd'.repeat(64 * 1024 + 1) },
        ],
        'invalid_field',
      ],
      [
        'huge boolean',
        '/api/analyze-video',
        [
          { headers: fieldHeaders('visual_analytics'), body: 't'.repeat(200_000) },
          { headers: fileHeaders('file'), body: video },
        ],
        'invalid_field',
      ],
      [
        'repeated file',
        '/api/analyze-video',
        [
          { headers: fileHeaders('file'), body: video },
          { headers: fileHeaders('file'), body: video },
        ],
        'invalid_field',
      ],
      [
        'repeated field',
        '/api/analyze-video',
        [
          { headers: fieldHeaders('visual_analytics'), body: 'true' },
          { headers: fieldHeaders('visual_analytics'), body: 'false' },
          { headers: fileHeaders('file'), body: video },
        ],
        'invalid_field',
      ],
      [
        'file as text',
        '/api/register-avatar',
        [{ headers: fieldHeaders('file'), body: 'not a file' }],
        'invalid_field',
      ],
      [
        'part without name',
        '/api/analyze-video',
        [{ headers: 'Content-Disposition: form-data; filename="a.mp4"', body: video }],
        'invalid_multipart',
      ],
      [
        'part without disposition',
        '/api/analyze-video',
        [{ headers: 'Content-Type: video/mp4', body: video }],
        'invalid_multipart',
      ],
      [
        'header too large',
        '/api/analyze-video',
        [{ headers: `${fileHeaders('file')}\r\nX-Pad: ${'p'.repeat(17 * 1024)}`, body: video }],
        'invalid_multipart',
      ],
      [
        'too many parts',
        '/api/analyze-video',
        Array.from({ length: 70 }, (_, i) => ({ headers: fieldHeaders(`f${i}`), body: 'x' })),
        'invalid_field',
      ],
      [
        'malformed header line',
        '/api/analyze-video',
        [{ headers: 'garbage-without-colon', body: video }],
        'invalid_multipart',
      ],
      [
        'empty file',
        '/api/analyze-video',
        [{ headers: fileHeaders('file'), body: new Uint8Array(0) }],
        'empty_file',
      ],
      [
        'text as video',
        '/api/register-avatar',
        [{ headers: fileHeaders('file'), body: 'hello, this is plainly text and not a video file' }],
        'unsupported_media_type',
      ],
    ];
    const booleans = [
      'True',
      'FALSE',
      '1',
      '0',
      'yes',
      'on',
      '',
      ' ',
      'tru',
      'true\u0000',
      'trüe',
      '\u202etrue',
      'null',
      '{}',
      '[]',
    ];
    for (let i = 0; i < 12; i++) {
      const field = r.pick(['blur_background', 'lip_sync_correction', 'eye_contact_correction']);
      const value =
        r.pick(booleans) + (r.next() < 0.3 ? String.fromCodePoint(r.int(0x80, 0x10ffff - 0x800)) : '');
      if (value.trim() === '' || value.trim() === 'true' || value.trim() === 'false') continue;
      cases.push([
        `boolean ${JSON.stringify(value)}`,
        '/api/process-video',
        [
          { headers: fileHeaders('file'), body: video },
          { headers: fieldHeaders(field), body: value },
        ],
        'invalid_field',
      ]);
    }
    for (let i = 0; i < 6; i++) {
      const name = r.pick([
        '../file',
        'file\u0000',
        'fïle',
        'FILE',
        '🎬',
        'file[]',
        ' file',
        'a'.repeat(500),
      ]);
      cases.push([
        `field name ${JSON.stringify(name.slice(0, 20))}`,
        '/api/analyze-video',
        [{ headers: fileHeaders(name), body: video }],
        'invalid_field',
      ]);
    }
    for (const [label, path, parts, expected] of cases) {
      const res = await send(path, multipart(b, parts), type);
      const { code } = await expectClear4xx(res, label);
      expect(code, label).toBe(expected);
    }
    expect(await stored()).toEqual(before);
  });

  it('should never use a filename in a storage key, and refuse traversal in ids', async () => {
    const r = prng(SEED + 3);
    const video = await fixture('generated/tone-3s.mp4');
    const names = [
      '../../keys/x.json',
      '..\\..\\keys\\x',
      '/etc/passwd',
      'a/../../b',
      '\u202egnp.exe',
      '🎬 clip 視頻.mp4',
      'x'.repeat(1000),
      'nul\u0000byte.mp4',
      '%2e%2e%2fkeys',
      '',
    ];
    const before = await stored();
    for (let i = 0; i < 8; i++) {
      const name = r.pick(names);
      const b = `fn${i}`;
      const extended = r.next() < 0.5;
      const disposition = extended
        ? `Content-Disposition: form-data; name="file"; filename="x"; filename*=UTF-8''${encodeURIComponent(name)}`
        : `Content-Disposition: form-data; name="file"; filename="${name.replace(/"/g, '\\"')}"`;
      const res = await send(
        '/api/register-avatar',
        multipart(b, [{ headers: `${disposition}\r\nContent-Type: video/mp4`, body: video }]),
        `multipart/form-data; boundary=${b}`,
      );
      expect(res.status, `filename ${JSON.stringify(name)}`).toBe(200);
      const { video_id } = await res.json<{ video_id: string }>();
      const added = (await stored()).filter((k) => !before.includes(k));
      expect(added).toHaveLength(2);
      for (const k of added)
        expect(k).toMatch(/^avatars\/t_[0-9a-f]{16}\/avt_[A-Za-z0-9_-]{22}\/(source|meta\.json)$/);
      const del = await send(`/api/avatars/${video_id}`, null, null, 'DELETE');
      expect(del.status).toBe(204);
    }
    expect(await stored()).toEqual(before);

    const ids = [
      '..%2F..%2Fkeys%2Fx',
      '..',
      '%2e%2e',
      'vid_..%2F..%2F..%2Fkeysxxxxxxx',
      'avt_' + 'A'.repeat(21) + '/',
      'vid_%00AAAAAAAAAAAAAAAAAAAA',
      encodeURIComponent('vid_🎬AAAAAAAAAAAAAAAAAAAA'),
      'upl_' + '.'.repeat(22),
    ];
    for (const id of ids) {
      for (const path of [`/api/jobs/${id}`, `/api/avatars/${id}`, `/api/uploads/${id}`]) {
        const res = await send(path, null, null, 'DELETE');
        expect(res.status, path).toBe(404);
        await expectClear4xx(res, path);
      }
      const st = await send(`/api/status/${id}`, null, null, 'GET');
      expect([200, 404], id).toContain(st.status);
      if (st.status === 200) expect((await st.json<{ status: string }>()).status).toBe('not_found');
      else await expectClear4xx(st, id);
      for (const [field, code] of [
        ['video_id', 'avatar_not_found'],
        ['file_id', 'not_found'],
      ] as const) {
        const b = 'ids';
        const res = await send(
          '/api/process-video',
          multipart(b, [
            {
              headers: fieldHeaders(field),
              body: decodeURIComponent(id.replace(/%(?![0-9a-f]{2})/gi, '%25')),
            },
            { headers: fieldHeaders('blur_background'), body: 'false' },
          ]),
          `multipart/form-data; boundary=${b}`,
        );
        expect((await expectClear4xx(res, `${field}=${id}`)).code).toBe(code);
      }
    }
    expect(await stored()).toEqual(before);
  });

  it('should still answer afterwards', async () => {
    expect((await SELF.fetch(`${BASE}/healthz`)).status).toBe(200);
    const st = await send('/api/status/vid_AAAAAAAAAAAAAAAAAAAAAA', null, null, 'GET');
    expect(await st.json()).toMatchObject({ status: 'not_found' });
  });
});
