/**
 * A DNS-over-HTTPS (JSON) stub for the webhook SSRF tests, so that no test asks a real resolver:
 * `a-b-c-d.ip.test` resolves to a.b.c.d (as nip.io does), `flaky-<n>-<name>` fails its first n
 * queries (the resolver unreachable) and then resolves as `<name>`; every other name has no address.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

const failures = new Map<string, number>();

/** Answers `GET /dns-query?name=&type=A|AAAA`; false when the request is not one. */
export function answerDoh(req: IncomingMessage, res: ServerResponse): boolean {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname !== '/dns-query') return false;
  let name = (url.searchParams.get('name') ?? '').toLowerCase();
  const type = url.searchParams.get('type');
  const flaky = /^flaky-(\d+)-(.+)$/.exec(name);
  if (flaky) {
    const seen = (failures.get(name) ?? 0) + 1;
    failures.set(name, seen);
    if (seen <= Number(flaky[1])) {
      res.writeHead(503).end();
      return true;
    }
    name = flaky[2];
  }
  const ip = /^(\d+)-(\d+)-(\d+)-(\d+)\.ip\.test$/.exec(name);
  const answer = ip && type === 'A' ? [{ name, type: 1, TTL: 60, data: ip.slice(1).join('.') }] : [];
  res.writeHead(200, { 'content-type': 'application/dns-json' });
  res.end(JSON.stringify({ Status: answer.length || type === 'AAAA' ? 0 : 3, Answer: answer }));
  return true;
}
