/**
 * @module webhooks/resolve
 * The delivery-time half of the SSRF guard: a webhook host's addresses, asked of a DNS-over-HTTPS
 * resolver (JSON API, `WEBHOOK_DOH_URL`; Cloudflare's by default), since a Worker has no resolver
 * of its own. Every address of the name must pass `refusedAddress`. What this cannot do: the
 * runtime's fetch resolves the name again, so a name that changes its answer between the two
 * (DNS rebinding) is not caught here; Cloudflare's egress itself does not reach private networks.
 */
import { hostOf, isLocalhostName, refusedAddress, type GuardPolicy } from './address-guard.js';

export interface ResolveEnv {
  /** DNS-over-HTTPS JSON endpoint. Empty: names are not resolved (development; IP literals are still checked). */
  WEBHOOK_DOH_URL?: string;
  /** "1": loopback receivers are allowed (`npm start`). */
  WEBHOOK_ALLOW_LOOPBACK?: string;
}

export const guardPolicy = (env: ResolveEnv): GuardPolicy => ({
  allowLoopback: env.WEBHOOK_ALLOW_LOOPBACK === '1',
});

const RESOLVE_TIMEOUT_MS = 3_000;

/** The A and AAAA addresses of `name` (CNAMEs followed by the resolver). */
export async function resolveAddresses(name: string, dohUrl: string): Promise<string[]> {
  const ask = async (type: 'A' | 'AAAA') => {
    const url = new URL(dohUrl);
    url.searchParams.set('name', name);
    url.searchParams.set('type', type);
    const res = await fetch(url, {
      headers: { accept: 'application/dns-json' },
      signal: AbortSignal.timeout(RESOLVE_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`the DNS resolver answered ${res.status}`);
    const json = (await res.json()) as { Answer?: { type: number; data: string }[] };
    return (json.Answer ?? []).filter((a) => a.type === 1 || a.type === 28).map((a) => a.data);
  };
  const [a, aaaa] = await Promise.all([ask('A'), ask('AAAA')]);
  return [...a, ...aaaa];
}

/**
 * Null when a delivery to `url` may go; else why not. IP literals and localhost names are judged
 * as they are; other names by every address they resolve to (when a resolver is configured).
 * Throws when the resolver cannot answer (the attempt fails and is retried).
 */
export async function refusedDestination(url: URL, env: ResolveEnv): Promise<string | null> {
  const policy = guardPolicy(env);
  const host = hostOf(url);
  if (isLocalhostName(host)) return policy.allowLoopback ? null : `${host} names this machine`;
  const literal = refusedAddress(host, policy);
  if (literal !== 'not an IP address') return literal && `${host} is ${literal}`;
  if (!env.WEBHOOK_DOH_URL) return null;
  const addresses = await resolveAddresses(host, env.WEBHOOK_DOH_URL);
  if (addresses.length === 0) return `${host} has no address`;
  for (const address of addresses) {
    const why = refusedAddress(address, policy);
    if (why) return `${host} resolves to ${address}, ${why}`;
  }
  return null;
}
