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

export interface PacedRequest {
  port: number;
  method?: string;
  path: string;
  headers: Record<string, string>;
  /** The whole body (its length is the Content-Length sent). */
  body: Buffer;
  /** Bytes of the body sent at once after the headers. */
  first: number;
  /** Then the rest, `bytes` every `everyMs`; null: nothing more (a stalled body). */
  trickle: { bytes: number; everyMs: number } | null;
  /** Give up (and destroy the socket) after this long without an answer. Default 120 s. */
  timeoutMs?: number;
}

export interface PacedAnswer extends RawAnswer {
  /** From the headers sent to the answer's first byte; null when the connection closed unanswered. */
  answeredMs: number | null;
  /** Body bytes written before the answer came (or the connection closed). */
  sent: number;
}

/**
 * Sends a request whose body comes slowly or stalls (issue #34, finding 6), over one socket, and
 * reads the answer; the sending stops when the answer begins. The socket is closed at the end.
 * @example const a = await sendPaced({ port, path: '/api/uploads/u/parts/1', headers, body, first: 1000, trickle: null });
 */
export function sendPaced({
  port,
  method = 'POST',
  path,
  headers,
  body,
  first,
  trickle,
  timeoutMs = 120_000,
}: PacedRequest): Promise<PacedAnswer> {
  const head = [
    `${method} ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${body.length}`,
    'Connection: close',
    '',
    '',
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let sent = 0;
    let t0 = 0;
    let answeredMs: number | null = null;
    let pacer: ReturnType<typeof setInterval> | undefined;
    const socket = connect(port, '127.0.0.1', () => {
      t0 = performance.now();
      socket.write(head);
      socket.write(body.subarray(0, first));
      sent = first;
      if (trickle)
        pacer = setInterval(() => {
          if (sent >= body.length || answeredMs !== null) return clearInterval(pacer);
          const next = Math.min(body.length, sent + trickle.bytes);
          socket.write(body.subarray(sent, next));
          sent = next;
        }, trickle.everyMs);
    });
    const give = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (d: Buffer) => {
      if (answeredMs === null) {
        answeredMs = performance.now() - t0;
        clearInterval(pacer);
      }
      chunks.push(d);
    });
    // The server may close while a write is in flight (it answered and stopped reading): not a failure.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(pacer);
      clearTimeout(give);
      if (t0 === 0) return reject(new Error(`could not connect to 127.0.0.1:${port}`));
      resolve({ ...parseAnswer(Buffer.concat(chunks).toString('utf8')), answeredMs, sent });
    });
  });
}
