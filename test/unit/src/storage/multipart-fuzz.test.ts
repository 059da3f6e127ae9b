/**
 * Fuzz of the streaming multipart parser with a seeded PRNG: valid forms at random chunkings
 * parse exactly; truncations, byte flips and garbage only ever raise `MultipartError`
 * (never another error, never a hang).
 */
import { describe, expect, it } from 'vitest';
import { FUZZ_SEED, prng, type Rng } from '../../../support/prng.js';
import { boundaryOf, MultipartError, parseMultipart } from '../../../../src/storage/multipart.js';

const SEED = FUZZ_SEED;

/** Streams `bytes` in random-sized chunks (1 byte up to 4 KiB). */
function randomStream(bytes: Uint8Array, r: Rng): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      const n = r.pick([1, 2, 3, 7, 64, 1000, 4096, r.int(1, 300)]);
      controller.enqueue(bytes.slice(offset, offset + n));
      offset += n;
    },
  });
}

interface Parsed {
  name: string;
  filename: string | null;
  bytes: Uint8Array;
}

async function parseAll(stream: ReadableStream<Uint8Array>, boundary: string): Promise<Parsed[]> {
  const out: Parsed[] = [];
  for await (const part of parseMultipart(stream, boundary)) {
    const chunks: Uint8Array[] = [];
    for await (const c of part.body) chunks.push(c.slice());
    const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    out.push({ name: part.name, filename: part.filename, bytes });
  }
  return out;
}

/** Only MultipartError may escape; resolves to 'ok' or 'error', fails on anything else or a hang. */
async function outcome(stream: ReadableStream<Uint8Array>, boundary: string): Promise<'ok' | 'error'> {
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error('parser hung')), 5_000),
  );
  try {
    await Promise.race([parseAll(stream, boundary), timeout]);
    return 'ok';
  } catch (err) {
    if (err instanceof MultipartError) return 'error';
    throw err;
  }
}

/** A random valid form, encoded by the platform's FormData. */
async function randomForm(r: Rng): Promise<{
  body: Uint8Array;
  boundary: string;
  expected: Array<{ name: string; filename: string | null; bytes: Uint8Array }>;
}> {
  const fd = new FormData();
  const expected: Array<{ name: string; filename: string | null; bytes: Uint8Array }> = [];
  const n = r.int(1, 6);
  for (let i = 0; i < n; i++) {
    const name = `${r.pick(['file', 'description', 'x', 'ünï', '🎬'])}${i}`;
    if (r.next() < 0.5) {
      const bytes = r.bytes(r.int(0, 20_000));
      // Plant boundary-like bytes: CRLF, dashes, a partial delimiter.
      if (bytes.length > 40) bytes.set(new TextEncoder().encode('\r\n--'), r.int(0, bytes.length - 10));
      const filename = r.pick(['a.mp4', 'clip ü.mov', '../../x', '視頻.webm']);
      fd.append(name, new Blob([bytes]), filename);
      expected.push({ name, filename, bytes });
    } else {
      const text = r.pick([
        'true',
        'false',
        '',
        'héllo\r\nworld',
        '--',
        '\r\n--\r\n',
        'x'.repeat(r.int(0, 3000)),
      ]);
      fd.append(name, text);
      expected.push({
        name,
        filename: null,
        bytes: new TextEncoder().encode(text.replace(/\r?\n/g, '\r\n')),
      });
    }
  }
  const req = new Request('http://x', { method: 'POST', body: fd });
  return {
    body: new Uint8Array(await req.arrayBuffer()),
    boundary: boundaryOf(req.headers.get('content-type'))!,
    expected,
  };
}

describe(`multipart parser fuzz (seed ${SEED})`, () => {
  it('should parse random valid forms identically at random chunkings', async () => {
    const r = prng(SEED);
    for (let i = 0; i < 60; i++) {
      const { body, boundary, expected } = await randomForm(r);
      const parts = await parseAll(randomStream(body, r), boundary);
      expect(
        parts.map((p) => p.name),
        `form #${i}`,
      ).toEqual(expected.map((p) => p.name));
      parts.forEach((p, j) => {
        expect(p.filename, `form #${i} part ${j}`).toBe(expected[j].filename);
        expect(
          Buffer.from(p.bytes).equals(Buffer.from(expected[j].bytes)),
          `form #${i} part ${j} bytes`,
        ).toBe(true);
      });
    }
  });

  it('should raise MultipartError for every truncation before the closing delimiter', async () => {
    const r = prng(SEED + 1);
    for (let i = 0; i < 20; i++) {
      const { body, boundary } = await randomForm(r);
      const closing = `--${boundary}--`.length + 2;
      for (let k = 0; k < 10; k++) {
        const cut = r.int(0, body.length - closing);
        expect(
          await outcome(randomStream(body.slice(0, cut), r), boundary),
          `form #${i} cut at ${cut}/${body.length}`,
        ).toBe('error');
      }
    }
  });

  it('should only ever raise MultipartError on flipped bytes and garbage', async () => {
    const r = prng(SEED + 2);
    const outcomes = { ok: 0, error: 0 };
    for (let i = 0; i < 80; i++) {
      const { body, boundary } = await randomForm(r);
      const mutated = body.slice();
      for (let k = r.int(1, 8); k > 0; k--) mutated[r.int(0, mutated.length - 1)] = r.int(0, 255);
      outcomes[await outcome(randomStream(mutated, r), boundary)]++;
    }
    for (let i = 0; i < 60; i++) {
      const boundary = r.pick(['x', 'boundary', '----WebKitFormBoundary' + r.int(0, 1e9)]);
      // Half of them open like a form (a part starts, then garbage), whatever their length.
      const opening = r.next() < 0.5 ? new TextEncoder().encode(`--${boundary}\r\n`) : new Uint8Array(0);
      const garbage = new Uint8Array([...opening, ...r.bytes(r.int(0, 5000))]);
      outcomes[await outcome(randomStream(garbage, r), boundary)]++;
    }
    expect(outcomes.error).toBeGreaterThan(40);
  });

  it('should enforce the part and header limits', async () => {
    const many =
      Array.from(
        { length: 70 },
        (_, i) => `--b\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`,
      ).join('') + '--b--\r\n';
    await expect(parseAll(randomStream(new TextEncoder().encode(many), prng(1)), 'b')).rejects.toThrow(
      MultipartError,
    );
    const fat = `--b\r\nContent-Disposition: form-data; name="f"\r\nX-Pad: ${'p'.repeat(20_000)}\r\n\r\nx\r\n--b--\r\n`;
    await expect(parseAll(randomStream(new TextEncoder().encode(fat), prng(2)), 'b')).rejects.toThrow(
      /headers too large/,
    );
  });
});
