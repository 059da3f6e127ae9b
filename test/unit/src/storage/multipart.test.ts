import { describe, expect, it } from 'vitest';
import {
  boundaryOf,
  MAX_DISCARDED_BYTES,
  MultipartError,
  parseContentDisposition,
  parseMultipart,
} from '../../../../src/storage/multipart.js';

const enc = new TextEncoder();

function streamOf(bytes: Uint8Array, chunkSize: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}

async function collect(body: Uint8Array, boundary: string, chunkSize: number) {
  const out: Array<{ name: string; filename: string | null; bytes: number[] }> = [];
  for await (const part of parseMultipart(streamOf(body, chunkSize), boundary)) {
    const bytes: number[] = [];
    for await (const c of part.body) bytes.push(...c);
    out.push({ name: part.name, filename: part.filename, bytes });
  }
  return out;
}

async function encodeForm(fd: FormData): Promise<{ body: Uint8Array; boundary: string }> {
  const req = new Request('http://x', { method: 'POST', body: fd });
  return {
    body: new Uint8Array(await req.arrayBuffer()),
    boundary: boundaryOf(req.headers.get('content-type'))!,
  };
}

describe('streaming multipart parser', () => {
  it('should parse what FormData encodes, at every chunk size', async () => {
    const binary = new Uint8Array(5000).map((_, i) => (i * 31) % 256);
    // Plant near-boundary bytes in the payload.
    binary.set(enc.encode('\r\n--'), 100);
    const fd = new FormData();
    fd.append('visual_analytics', 'true');
    fd.append('file', new Blob([binary]), 'clip ü.mp4');
    fd.append('description', 'héllo\r\nworld');
    const { body, boundary } = await encodeForm(fd);
    for (const size of [1, 2, 7, 64, 1000, 100_000]) {
      const parts = await collect(body, boundary, size);
      expect(parts.map((p) => p.name)).toEqual(['visual_analytics', 'file', 'description']);
      expect(new TextDecoder().decode(new Uint8Array(parts[0].bytes))).toBe('true');
      expect(parts[1].filename).toBe('clip ü.mp4');
      expect(parts[1].bytes).toEqual([...binary]);
      expect(new TextDecoder().decode(new Uint8Array(parts[2].bytes))).toBe('héllo\r\nworld');
    }
  });

  it('should reject truncated and malformed bodies', async () => {
    const bad = [
      '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue', // no closing boundary
      'no boundary at all',
      '--b\r\nX: y\r\n\r\nv\r\n--b--', // no content-disposition
      '--b\r\nContent-Disposition: form-data; name="a"\r\nbroken\r\n\r\nv\r\n--b--',
    ];
    for (const text of bad) await expect(collect(enc.encode(text), 'b', 3)).rejects.toThrow(MultipartError);
  });

  it('should read the boundary and content-disposition forms', () => {
    expect(boundaryOf('multipart/form-data; boundary="a b"')).toBe('a b');
    expect(boundaryOf('multipart/form-data;boundary=xyz')).toBe('xyz');
    expect(boundaryOf('application/json')).toBeNull();
    expect(parseContentDisposition(`form-data; name="file"; filename*=UTF-8''%E2%82%AC.mp4`)).toEqual({
      name: 'file',
      filename: '€.mp4',
    });
    expect(parseContentDisposition('form-data; name="a\\"b"')).toEqual({ name: 'a"b', filename: null });
  });

  it('should limit the number of parts', async () => {
    const body = enc.encode(
      '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n'.repeat(3) + '--b--',
    );
    const parts = [];
    await expect(async () => {
      for await (const p of parseMultipart(streamOf(body, 10), 'b', { maxParts: 2 })) {
        await p.skip();
        parts.push(p);
      }
    }).rejects.toThrow(/more than 2 parts/);
  });

  it('should read a refused body on to its end, and cancel one longer than MAX_DISCARDED_BYTES', async () => {
    const MiB = 1024 * 1024;
    /** A form whose first field the caller refuses, then `fileMiB` of a file part, pulled lazily. */
    const refusedForm = (fileMiB: number) => {
      const head = enc.encode('--b\r\nContent-Disposition: form-data; name="refused"\r\n\r\nx\r\n--b\r\n');
      const fileHead = enc.encode('Content-Disposition: form-data; name="file"; filename="a"\r\n\r\n');
      const chunk = new Uint8Array(MiB);
      const seen = { pulled: 0, cancelled: false, closed: false };
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = sent === 0 ? head : sent === 1 ? fileHead : sent - 2 < fileMiB ? chunk : null;
          sent++;
          if (!next) {
            controller.enqueue(enc.encode('\r\n--b--\r\n'));
            seen.closed = true;
            return controller.close();
          }
          seen.pulled += next.length;
          controller.enqueue(next);
        },
        cancel() {
          seen.cancelled = true;
        },
      });
      return { stream, seen };
    };
    const refuse = async (stream: ReadableStream<Uint8Array>) => {
      await expect(
        (async () => {
          for await (const part of parseMultipart(stream, 'b')) throw new Error(`refused ${part.name}`);
        })(),
      ).rejects.toThrow('refused refused');
    };

    const small = refusedForm(4);
    await refuse(small.stream);
    expect(small.seen).toMatchObject({ closed: true, cancelled: false });

    const large = refusedForm(MAX_DISCARDED_BYTES / MiB + 16);
    await refuse(large.stream);
    expect(large.seen.cancelled).toBe(true);
    expect(large.seen.closed).toBe(false);
    expect(large.seen.pulled).toBeLessThan(MAX_DISCARDED_BYTES + 2 * MiB);
  });
});
