/**
 * @module bench/abuse/raw-request
 * HTTP requests no well-behaved client can send, written straight to a TCP socket: a body shorter
 * than its Content-Length, or a chunked body without its last chunk, each followed by a
 * half-close (the client's FIN; it still reads the answer). Issue #12, finding 3.
 * @example const answer = await sendTruncated({ port: 8787, path: '/api/analyze-video', headers, body, framing: 'content-length' });
 */
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  contentType: string;
  body: string;
}

export interface TruncatedRequest {
  port: number;
  path: string;
  headers: Record<string, string>;
  /** What is sent of the body: half of what Content-Length declares, or one chunk with no end. */
  body: Buffer;
  framing: 'content-length' | 'chunked';
}

/** Sends the request cut short, half-closes the socket, and reads the whole answer. */
export function sendTruncated({ port, path, headers, body, framing }: TruncatedRequest): Promise<RawAnswer> {
  const framingHeader =
    framing === 'content-length' ? `Content-Length: ${body.length * 2}` : 'Transfer-Encoding: chunked';
  const head = [
    `POST ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    framingHeader,
    'Connection: close',
    '',
    '',
  ].join('\r\n');
  // A chunked body whose one chunk is complete but whose terminating `0` chunk never comes.
  const payload =
    framing === 'chunked'
      ? Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n')])
      : body;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(head);
      socket.end(payload);
    });
    const chunks: Buffer[] = [];
    socket.setTimeout(60_000, () => socket.destroy(new Error('no answer within 60 s')));
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('end', () => resolve(parseAnswer(Buffer.concat(chunks).toString('utf8'))));
  });
}

/** Pure: status, content type and body of a raw HTTP/1.1 answer (a chunked answer's framing stays in the body). */
export function parseAnswer(text: string): RawAnswer {
  const split = text.indexOf('\r\n\r\n');
  const head = split === -1 ? text : text.slice(0, split);
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
  const contentType = /^content-type:\s*(.*)$/im.exec(head)?.[1].trim() ?? '';
  return { status, contentType, body: split === -1 ? '' : text.slice(split + 4) };
}
