// The private-address policy every outbound connection obeys (GATEHOUSE_PRIVATE_ADDRESSES and the ranges
// GATEHOUSE_PRIVATE_ADDRESSES_ALLOWED lets through): event-stream receivers, connectors, on-call providers,
// and the SMTP server, Slack and the OpenID provider whether set by variable or on the Settings page. Checked
// on the address actually connected to (an IP in the URL as written, a name as it resolves, at connect time,
// so a name that resolves differently later — DNS rebinding — is caught too). Also a bounded fetch and an
// SMTP socket that obey it. No database access here.
import { lookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect, isIP, type LookupFunction, type Socket } from 'node:net';
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

export class AddressRefused extends Error {
  constructor(address: string) {
    // Every kind of peer connects through this policy, so the words name none.
    super(`address ${address} is not public, and GATEHOUSE_PRIVATE_ADDRESSES is deny`);
  }
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Parses GATEHOUSE_PRIVATE_ADDRESSES_ALLOWED's entries (an IP address or a CIDR range each) into ranges;
 * throws an Error naming the first entry that is neither.
 */
export function parseAllowedRanges(entries: readonly string[]): Range[] {
  return entries.map((entry) => {
    let range: Range;
    if (ipaddr.isValidCIDR(entry)) range = ipaddr.parseCIDR(entry);
    else if (ipaddr.isValid(entry)) {
      const address = ipaddr.parse(entry);
      range = [address, address.kind() === 'ipv4' ? 32 : 128];
    } else throw new Error(`"${entry}" is neither an IP address nor a CIDR range`);
    // An IPv4-mapped range (::ffff:a.b.c.d/n) means the IPv4 addresses, which is how they are checked.
    const [address, bits] = range;
    if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
    return range;
  });
}

/** What the policy needs of the settings. */
export interface AddressPolicySettings {
  privateAddresses: 'allow' | 'deny';
  privateAddressesAllowed: readonly string[];
}

export interface AddressPolicy {
  /** False when every address may be connected to (GATEHOUSE_PRIVATE_ADDRESSES=allow). */
  readonly denies: boolean;
  /** The refusal of `host` when it is an IP address the policy refuses (brackets allowed); undefined for names and allowed addresses. */
  refuses(host: string): AddressRefused | undefined;
  /** dns.lookup refusing every answer that includes a refused address; undefined when nothing is refused. */
  readonly lookup: LookupFunction | undefined;
}

const ALLOW_ALL: AddressPolicy = { denies: false, refuses: () => undefined, lookup: undefined };
const made = new WeakMap<AddressPolicySettings, AddressPolicy>();

/** The policy of `settings` (ctx.config), made once per settings object. */
export function addressPolicy(settings: AddressPolicySettings): AddressPolicy {
  if (settings.privateAddresses !== 'deny') return ALLOW_ALL;
  const known = made.get(settings);
  if (known) return known;
  const allowed = parseAllowedRanges(settings.privateAddressesAllowed);
  const refused = (address: string): boolean => {
    if (!isNonPublicAddress(address)) return false;
    const parsed = ipaddr.process(address);
    return !allowed.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
  };
  const policyLookup: LookupFunction = (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const bad = addresses.find((a) => refused(a.address));
      if (bad) return callback(new AddressRefused(bad.address), '', 0);
      if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  const policy: AddressPolicy = {
    denies: true,
    refuses(host) {
      const bare = host.replace(/^\[|\]$/g, '');
      return isIP(bare) !== 0 && refused(bare) ? new AddressRefused(bare) : undefined;
    },
    lookup: policyLookup,
  };
  made.set(settings, policy);
  return policy;
}

/** The longest answer outboundFetch reads (Slack's answers, an OpenID provider's documents and keys are far smaller). */
export const MAX_FETCHED_BYTES = 4 * 1024 * 1024;

class AnswerTooLarge extends Error {}

/** The init outboundFetch takes: what Slack's client and openid-client pass. */
export interface OutboundInit {
  method?: string;
  headers?: ConstructorParameters<typeof Headers>[0];
  body?: string | URLSearchParams | null;
  signal?: AbortSignal | null;
}

/**
 * A fetch over node:http(s) that obeys `policy` on the address it connects to, never follows a redirect
 * (a 3xx is answered as it is), and reads at most MAX_FETCHED_BYTES. For clients that take a fetch
 * (Slack's channel, openid-client's customFetch). Rejects as fetch does: AddressRefused, an abort, a network error.
 */
export function outboundFetch(policy: AddressPolicy): (input: string | URL, init?: OutboundInit) => Promise<Response> {
  return (input, init = {}) => new Promise<Response>((resolve, reject) => {
    const url = new URL(String(input));
    const refusal = policy.refuses(url.hostname);
    if (refusal) return reject(refusal);
    const send = url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : undefined;
    if (!send) return reject(new TypeError(`cannot fetch ${url.protocol} URLs`));
    const headers = Object.fromEntries(new Headers(init.headers ?? {}).entries());
    const body = init.body === undefined || init.body === null ? undefined : String(init.body);
    if (body !== undefined && init.body instanceof URLSearchParams) headers['content-type'] ??= 'application/x-www-form-urlencoded;charset=UTF-8';
    const req = send(url, {
      method: init.method ?? 'GET', headers, ...(init.signal && { signal: init.signal }), ...(policy.lookup && { lookup: policy.lookup }),
    }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_FETCHED_BYTES) res.destroy(new AnswerTooLarge(`the answer was larger than ${MAX_FETCHED_BYTES} bytes`));
        else chunks.push(chunk);
      });
      res.on('error', reject);
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) answerHeaders.append(name, one);
        }
        const noBody = status === 204 || status === 205 || status === 304;
        try {
          resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, headers: answerHeaders }));
        } catch (err) {
          reject(err);
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Connects to an SMTP server at `host`:`port` obeying `policy` (nodemailer's getSocket: it then speaks SMTP,
 * and TLS for smtps://, over the socket). Calls back with the connected socket, or the refusal or error.
 */
export function smtpSocket(policy: AddressPolicy, host: string, port: number, timeoutMs: number,
  callback: (err: Error | null, socket?: Socket) => void): void {
  const refusal = policy.refuses(host);
  if (refusal) return void process.nextTick(() => callback(refusal));
  const socket = netConnect({ host: host.replace(/^\[|\]$/g, ''), port, ...(policy.lookup && { lookup: policy.lookup }) });
  const timer = setTimeout(() => socket.destroy(Object.assign(new Error(`no connection within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })), timeoutMs);
  const failed = (err: Error) => {
    clearTimeout(timer);
    callback(err);
  };
  socket.once('error', failed);
  socket.once('connect', () => {
    clearTimeout(timer);
    socket.removeListener('error', failed);
    callback(null, socket);
  });
}
