/**
 * Truncated requests on a raw socket (bench/abuse/raw-request): what reaches the server is the cut
 * body and the client's FIN, and the answer is still read after the half-close.
 */
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAnswer, sendTruncated } from '../../../../bench/abuse/raw-request.js';

let server: Server | undefined;
afterEach(() => server?.close());

/** A server that reads until the client's FIN, then answers with what it received. */
function recorder(): Promise<{ port: number; received: Promise<string> }> {
  let done: (text: string) => void;
  const received = new Promise<string>((r) => (done = r));
  server = createServer({ allowHalfOpen: true }, (socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      done(text);
      const body = JSON.stringify({ got: text.length });
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
    });
  });
  return new Promise((resolve) =>
    server!.listen(0, '127.0.0.1', () => {
      const address = server!.address();
      resolve({ port: typeof address === 'object' && address ? address.port : 0, received });
    }),
  );
}

describe('sendTruncated', () => {
  it('should declare twice the bytes it sends, half-close, and read the answer after the FIN', async () => {
    const { port, received } = await recorder();
    const answer = await sendTruncated({
      port,
      path: '/p',
      headers: { 'x-a': '1' },
      body: Buffer.from('abcd'),
      framing: 'content-length',
    });
    const sent = await received;
    expect(sent).toMatch(/^POST \/p HTTP\/1\.1\r\n/);
    expect(sent).toContain('Content-Length: 8\r\n');
    expect(sent).toContain('x-a: 1\r\n');
    expect(sent.endsWith('\r\n\r\nabcd')).toBe(true);
    expect(answer).toEqual({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ got: sent.length }),
    });
  });

  it('should send one whole chunk and never the last chunk', async () => {
    const { port, received } = await recorder();
    await sendTruncated({ port, path: '/p', headers: {}, body: Buffer.alloc(20, 120), framing: 'chunked' });
    const sent = await received;
    expect(sent).toContain('Transfer-Encoding: chunked\r\n');
    expect(sent).not.toMatch(/Content-Length/i);
    expect(sent.endsWith(`\r\n\r\n14\r\n${'x'.repeat(20)}\r\n`)).toBe(true);
  });
});

describe('parseAnswer', () => {
  it('should read status, content type and body, and survive an answer with no head end', () => {
    expect(
      parseAnswer('HTTP/1.1 500 Internal Server Error\r\ncontent-type: text/plain\r\n\r\nError: x'),
    ).toEqual({
      status: 500,
      contentType: 'text/plain',
      body: 'Error: x',
    });
    expect(parseAnswer('')).toEqual({ status: 0, contentType: '', body: '' });
  });
});
