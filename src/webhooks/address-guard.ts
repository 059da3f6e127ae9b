/**
 * @module webhooks/address-guard
 * Which webhook URLs and addresses a delivery may reach (SSRF guard). Pure.
 *
 * Production refuses every address that is not public: loopback, "this network", private
 * (10/8, 172.16/12, 192.168/16), CGNAT (100.64/10), link-local (169.254/16, the cloud metadata
 * address among them), multicast and reserved IPv4; IPv6 loopback, unspecified, ULA (fc00::/7),
 * link-local (fe80::/10), multicast (ff00::/8), and IPv4-mapped or NAT64 forms of refused IPv4.
 * `localhost` and `*.localhost` names are refused without asking DNS. Ports are not restricted
 * (receivers often listen on 8080 or 8443). `allowLoopback` (WEBHOOK_ALLOW_LOOPBACK=1, set by
 * `npm start`) admits loopback only, so local receivers and tests work; every other refusal stays.
 */
import { WEBHOOK_URL_MAX_CHARS } from '../contract/webhooks.js';

export interface GuardPolicy {
  allowLoopback: boolean;
}

/** Null when the address may be reached; else why not. */
export function refusedAddress(address: string, policy: GuardPolicy): string | null {
  const v4 = parseIPv4(address);
  if (v4) return refusedIPv4(v4, policy);
  const v6 = parseIPv6(address);
  if (v6) return refusedIPv6(v6, policy);
  return 'not an IP address';
}

/**
 * Pure: the URL a client gave, checked as far as it can be without DNS: http or https, at most
 * 2,048 characters, no credentials, and (for an IP literal or a localhost name) an address
 * deliveries may reach. Returns the URL, or the reason it is refused.
 */
export function checkWebhookUrl(raw: string, policy: GuardPolicy): { url: URL } | { refused: string } {
  if (raw.length > WEBHOOK_URL_MAX_CHARS)
    return { refused: `is longer than ${WEBHOOK_URL_MAX_CHARS} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refused: 'is not an absolute URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { refused: 'must be an http or https URL' };
  if (url.username || url.password) return { refused: 'must not carry a user name or password' };
  const host = hostOf(url);
  if (isLocalhostName(host))
    return policy.allowLoopback ? { url } : { refused: 'names this machine (localhost)' };
  if (parseIPv4(host) || parseIPv6(host)) {
    const why = refusedAddress(host, policy);
    if (why) return { refused: `points at ${why}` };
  } else if (!/^[a-z0-9.-]+$/i.test(host) || !host.includes('.')) {
    return { refused: 'must name a public host' };
  }
  return { url };
}

/** The URL's host without IPv6 brackets or a trailing dot. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');

export const isLocalhostName = (host: string) => /^(localhost|.*\.localhost)$/i.test(host);

type V4 = [number, number, number, number];

function parseIPv4(s: string): V4 | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return null;
  const parts = m.slice(1).map(Number) as V4;
  return parts.every((p) => p <= 255) ? parts : null;
}

function refusedIPv4([a, b, c]: V4, policy: GuardPolicy): string | null {
  if (a === 127) return policy.allowLoopback ? null : 'a loopback address';
  if (a === 0) return 'an address of "this network"';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'a private address';
  if (a === 100 && b >= 64 && b <= 127) return 'a shared (CGNAT) address';
  if (a === 169 && b === 254) return 'a link-local address';
  if (a === 192 && b === 0 && c === 0) return 'a reserved address';
  if (a === 198 && (b === 18 || b === 19)) return 'a reserved address';
  if (a >= 224 && a <= 239) return 'a multicast address';
  if (a >= 240) return 'a reserved address';
  return null;
}

/** Eight 16-bit groups, or null when `s` is not an IPv6 address. */
function parseIPv6(s: string): number[] | null {
  if (!s.includes(':') || !/^[0-9a-f:.]+$/i.test(s)) return null;
  let text = s.toLowerCase();
  // An embedded IPv4 tail (::ffff:10.0.0.1) becomes two groups.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const v4 = parseIPv4(tail[1]);
    if (!v4) return null;
    text =
      text.slice(0, -tail[1].length) +
      `${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0)) return null;
  const all = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return all.map((g) => parseInt(g, 16));
}

function refusedIPv6(g: number[], policy: GuardPolicy): string | null {
  const zeroUntil = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUntil(7) && g[7] === 1) return policy.allowLoopback ? null : 'a loopback address';
  if (zeroUntil(8)) return 'the unspecified address';
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d): the IPv4 decides.
  const embedded = [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255] as V4;
  if (
    (zeroUntil(5) && (g[5] === 0xffff || g[5] === 0)) ||
    (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
  )
    return refusedIPv4(embedded, policy);
  if ((g[0] & 0xfe00) === 0xfc00) return 'a unique local (ULA) address';
  if ((g[0] & 0xffc0) === 0xfe80) return 'a link-local address';
  if ((g[0] & 0xff00) === 0xff00) return 'a multicast address';
  return null;
}
