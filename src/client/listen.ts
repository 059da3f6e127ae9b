/**
 * @module client/listen
 * `video-api webhook-listen`: a local webhook receiver (Node) that verifies every delivery with the
 * key's secret and hands each verified one on; a delivery that does not verify is answered 400 (the
 * service retries it), a verified one 204.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, type WebhookPayload } from './webhook.js';

export interface Delivery {
  id: string;
  payload: WebhookPayload;
}

export interface Listener {
  url: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:`port` (0: any free port) until closed. */
export async function listenForWebhooks(
  port: number,
  secret: string,
  onDelivery: (d: Delivery) => void,
  onRejected: (why: string) => void = () => {},
): Promise<Listener> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let payload: WebhookPayload;
      try {
        payload = verifyWebhook(body, req.headers, secret);
      } catch (err) {
        onRejected((err as Error).message);
        res.writeHead(400).end('invalid signature');
        return;
      }
      res.writeHead(204).end();
      onDelivery({ id: String(req.headers['webhook-id']), payload });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
