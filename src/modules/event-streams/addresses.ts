// Which addresses GATEHOUSE_PRIVATE_ADDRESSES=deny refuses (event-stream receivers, connectors): everything outside the
// public unicast internet, as ipaddr.js classifies it (loopback, private, link-local — where cloud
// metadata services live —, shared, documentation, benchmarking, multicast, reserved...), and every IPv6
// form that carries an IPv4 address to a gateway (NAT64, 6to4, Teredo, SIIT). Pure.
import ipaddr from 'ipaddr.js';

const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** True for an IP address outside the public internet; false for text that is no IP address. */
export function isNonPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  // ::a.b.c.d (IPv4-compatible, deprecated; the URL parser writes ::127.0.0.1 as ::7f00:1): ipaddr.js calls it unicast.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).match(IPV4_COMPATIBLE)) return true;
  // ::ffff:a.b.c.d and ::a.b.c.d reach the IPv4 address itself: judge that.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).range() === 'ipv4Mapped') parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  // Only plain public unicast passes; an embedded IPv4 behind a translator may be anything, so it is refused.
  return parsed.range() !== 'unicast';
}
