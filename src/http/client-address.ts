// Who the client is: the socket's peer, or — behind proxies listed in GATEHOUSE_TRUSTED_PROXIES — the
// address X-Forwarded-For names. Used by auth throttling, the request log and audit events.
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/** `::ffff:203.0.113.5` (an IPv4 peer on a dual-stack socket) is 203.0.113.5. */
function normalise(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return (mapped ? mapped[1]! : address).toLowerCase();
}

/** One X-Forwarded-For entry as an address: brackets and a port are dropped; null when it is no IP address. */
function forwardedAddress(entry: string): string | null {
  let text = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  return isIP(text) === 0 ? null : normalise(text);
}

/**
 * Parses the trusted-proxy list (addresses and CIDR ranges, IPv4 or IPv6).
 * Throws Error naming the first entry that is neither, for the config to report.
 */
export function trustedProxyList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const prefix = Number(bits);
    if (family === 0 || extra !== undefined || (bits !== undefined && (!/^\d{1,3}$/.test(bits) || prefix > (family === 4 ? 32 : 128)))) {
      throw new Error(`"${entry}" is not an IP address or CIDR range`);
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(normalise(address!), type);
    else list.addSubnet(normalise(address!), prefix, type);
  }
  return list;
}

/**
 * The function giving a request's client address. Without trusted proxies it is the socket's peer,
 * as always. With them, while the nearest hop is trusted, X-Forwarded-For is read from the right: the
 * first address that is not a trusted proxy is the client (entries further left are whatever the client
 * claimed, and are ignored). When every hop is trusted, the left-most is the client; an entry that is
 * no IP address stops the walk at the last trusted hop.
 */
export function clientAddressOf(trusted: readonly string[]): (req: IncomingMessage) => string {
  const peer = (req: IncomingMessage) => normalise(req.socket.remoteAddress ?? 'unknown');
  if (trusted.length === 0) return peer;
  const list = trustedProxyList(trusted);
  const isTrusted = (address: string) => isIP(address) !== 0 && list.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
  return (req) => {
    let client = peer(req);
    const header = [req.headers['x-forwarded-for'] ?? []].flat().join(',');
    if (header === '' || !isTrusted(client)) return client;
    const hops = header.split(',');
    while (isTrusted(client) && hops.length > 0) {
      const next = forwardedAddress(hops.pop()!);
      if (next === null) break;
      client = next;
    }
    return client;
  };
}
