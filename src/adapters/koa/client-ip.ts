/**
 * The client's address: the socket peer, unless the peer is a trusted proxy; then
 * X-Forwarded-For is walked right to left, skipping trusted proxies, and the first
 * untrusted hop is the client. A forged X-Forwarded-For from an untrusted peer changes nothing.
 * A hop may carry a port (`203.0.113.7:41234`, `[2001:db8::1]:443`): the address is what counts.
 * A hop's address must be canonical text: an IPv4 dotted quad (four decimal octets 0..255, no
 * leading zeros) or RFC 5952 IPv6 text (lower case, `::` for the longest run of two or more zero
 * groups, no leading zeros; an IPv4-mapped address also as `::ffff:<dotted quad>`), which is what
 * proxies write (inet_ntop). Anything else (`0203.0.113.13`, `1.2.3`, `0x7f.1`, `2001:DB8::1`,
 * `2001:db8:0:0::1`, a zone) is not guessed at: like any other garbage in the chain, the client
 * is then the peer.
 */
import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

export interface TrustedProxies {
  contains(ip: string): boolean;
}

function normalise(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const trimmed = ip.trim().replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(trimmed)) return null;
  const addr = ipaddr.parse(trimmed);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) return (addr as ipaddr.IPv6).toIPv4Address();
  return addr;
}

/**
 * Peers repeat (keep-alive, the same proxies): a pure function of an address is computed once per
 * address, up to 10,000 remembered (all dropped when full, so hostile traffic cannot grow it).
 */
function memoByAddress<T extends string | boolean>(fn: (ip: string) => T): (ip: string) => T {
  const memo = new Map<string, T>();
  return (ip) => {
    const hit = memo.get(ip);
    if (hit !== undefined) return hit;
    const value = fn(ip);
    if (memo.size >= 10_000) memo.clear();
    memo.set(ip, value);
    return value;
  };
}

/** One trusted-proxy entry as a range; IPv4-mapped IPv6 ranges become IPv4 ranges. Throws on a bad entry. */
function parseRange(entry: string): Range {
  const s = entry.trim();
  if (s.includes('/')) {
    try {
      const [addr, bits] = ipaddr.parseCIDR(s);
      const v4 = addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress();
      return v4 ? [(addr as ipaddr.IPv6).toIPv4Address(), Math.max(0, bits - 96)] : [addr, bits];
    } catch {
      throw new Error(`"${s}" is not an IP address or CIDR range`);
    }
  }
  const addr = normalise(s);
  if (addr === null) throw new Error(`"${s}" is not an IP address or CIDR range`);
  return [addr, addr.kind() === 'ipv4' ? 32 : 128];
}

/** Parses addresses and CIDRs; throws naming the first bad entry. */
export function parseCidrList(entries: readonly string[]): TrustedProxies {
  const ranges = entries.map(parseRange);
  const contains = memoByAddress((ip) => {
    const addr = normalise(ip);
    return addr !== null && ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match([net, bits] as never));
  });
  return { contains };
}

/**
 * The address families (IPv4, IPv6) whose every address the entries cover together: `0.0.0.0/0`,
 * `::/0`, `::ffff:0:0/96`, or any set of ranges that adds up to a whole family (`0.0.0.0/1` plus
 * `128.0.0.0/1`). Trusting such a list lets any client name its own IP. Throws on a bad entry.
 */
export function catchAllFamilies(entries: readonly string[]): Array<'IPv4' | 'IPv6'> {
  const out: Array<'IPv4' | 'IPv6'> = [];
  for (const [kind, width] of [
    ['ipv4', 32n],
    ['ipv6', 128n],
  ] as const) {
    const spans = entries
      .map(parseRange)
      .filter(([net]) => net.kind() === kind)
      .map(([net, bits]) => {
        const value = net.toByteArray().reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
        const size = 1n << (width - BigInt(bits));
        const start = value - (value % size);
        return [start, start + size] as const;
      })
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    let reach = 0n;
    for (const [start, end] of spans) if (start <= reach && end > reach) reach = end;
    if (reach === 1n << width) out.push(kind === 'ipv4' ? 'IPv4' : 'IPv6');
  }
  return out;
}

/** The widest trusted-proxy ranges prod accepts without svc.trusted-proxies-allow-wide: /8 (IPv4), /32 (IPv6). */
export const WIDEST_PROXY_PREFIX = { IPv4: 8, IPv6: 32 } as const;

/** The entries wider than WIDEST_PROXY_PREFIX (IPv4-mapped IPv6 ranges judged as IPv4). Throws on a bad entry. */
export function wideRanges(entries: readonly string[]): string[] {
  return entries.filter((entry) => {
    const [net, bits] = parseRange(entry);
    return bits < WIDEST_PROXY_PREFIX[net.kind() === 'ipv4' ? 'IPv4' : 'IPv6'];
  });
}

export const canonicalIp: (ip: string) => string = memoByAddress((ip) => {
  const addr = normalise(ip);
  return addr === null ? ip : addr.toString();
});

const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
/** An IPv4 address as a canonical dotted quad: four decimal octets, no leading zeros. */
const DOTTED_QUAD = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

/**
 * An address written as canonical text (a dotted quad, or RFC 5952 IPv6, IPv4-mapped ones also
 * as `::ffff:<dotted quad>`), IPv4-mapped addresses as IPv4; null for any other spelling.
 */
export function parseCanonicalIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (DOTTED_QUAD.test(text)) return ipaddr.IPv4.parse(text);
  const mapped = /^::ffff:([0-9.]+)$/.exec(text);
  if (mapped) return DOTTED_QUAD.test(mapped[1] as string) ? ipaddr.IPv4.parse(mapped[1] as string) : null;
  if (!/^[0-9a-f:]{2,39}$/.test(text) || !ipaddr.IPv6.isValid(text)) return null;
  const addr = ipaddr.IPv6.parse(text);
  if (addr.toRFC5952String() !== text) return null;
  return addr.isIPv4MappedAddress() ? addr.toIPv4Address() : addr;
}

/**
 * One X-Forwarded-For hop: a canonical address, or one with the port the proxy saw (`ip:port`,
 * `[ipv6]:port`, as some proxies write it); null when it is neither.
 */
function parseHop(hop: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(hop);
  if (bracketed) return parseCanonicalIp(bracketed[1] as string);
  const v4WithPort = /^([0-9.]+):\d{1,5}$/.exec(hop);
  return parseCanonicalIp(v4WithPort ? (v4WithPort[1] as string) : hop);
}

export function resolveClientIp(peer: string | undefined, forwardedFor: string | string[] | undefined, trusted: TrustedProxies): string {
  const peerIp = canonicalIp(peer ?? '');
  if (!trusted.contains(peerIp) || forwardedFor === undefined) return peerIp || 'unknown';
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    const addr = parseHop(hop);
    if (addr === null) return peerIp; // garbage in the chain: trust nothing beyond the proxy we know
    const ip = addr.toString();
    if (!trusted.contains(ip)) return ip;
  }
  // every hop is a trusted proxy: the left-most one is the best we know
  const first = hops[0] !== undefined ? parseHop(hops[0]) : null;
  return first ? first.toString() : peerIp;
}

/**
 * The unit an IP rate limit counts: an IPv4 address, or the /64 network of an IPv6 address
 * (one subscriber usually holds a whole /64, so per-address counting would be unlimited).
 */
export function rateLimitSubjectOf(ip: string): string {
  const addr = normalise(ip);
  if (addr === null || addr.kind() === 'ipv4') return addr === null ? ip : addr.toString();
  const parts = (addr as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}
