/**
 * A real webhook receiver for the e2e tests: a Node HTTP server on loopback that records every
 * request and answers as the test says (a status, or never).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** What the next requests get: a status code, or 'hang' (never answer). */
  answer: number | 'hang';
  close(): Promise<void>;
}

/** Starts a receiver on `port` (0: any free port). */
export async function startReceiver(port = 0, answer: Receiver['answer'] = 200): Promise<Receiver> {
  const received: Received[] = [];
  const hanging = new Set<() => void>();
  const receiver: Receiver = { url: '', port: 0, received, answer, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        at: Date.now(),
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      if (receiver.answer === 'hang') {
        hanging.add(() => res.destroy());
        return;
      }
      res.writeHead(receiver.answer).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hook`;
  receiver.close = () =>
    new Promise<void>((r) => {
      for (const end of hanging) end();
      server.closeAllConnections();
      server.close(() => r());
    });
  return receiver;
}

/** A loopback port nothing listens on (taken, then released). */
export async function freePort(): Promise<number> {
  const r = await startReceiver();
  await r.close();
  return r.port;
}
