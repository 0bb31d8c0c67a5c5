// Which receiver addresses GATEHOUSE_EVENT_STREAM_PRIVATE_ADDRESSES=deny refuses: loopback, private,
// link-local (cloud metadata services live there), shared and other non-public ranges. Pure.
import { BlockList, isIP } from 'node:net';

const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 3],
] as const) NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::', 127], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** True for an IP address outside the public internet (IPv4-mapped IPv6 judged as its IPv4). */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return NOT_PUBLIC.check(address, family === 6 ? 'ipv6' : 'ipv4');
}
