// The server's connection table: a fair share per client address, and when the table (or an address's
// share) is full, room made by shedding connections that hold a slot without using it (never sent a
// request, or idle between keep-alive requests) before anyone is refused — and a refused client is
// answered (503 + Retry-After), not reset.
import { isIP, type Socket } from 'node:net';
import { trustedProxyList } from './client-address.ts';

interface Entry {
  address: string;
  /** Requests received on the connection and not yet answered. */
  busy: number;
  /** Whether it has sent a request head at all. */
  spoke: boolean;
  /** When it connected or last finished a request (performance.now()). */
  quietSince: number;
}

/**
 * A connection is only shed after holding its slot unused this long: a real client sends its request
 * head right after connecting, so a burst of fresh connections is answered (503 past the limit), not cut.
 */
export const SHED_AFTER_MS = 1000;

/**
 * - accept: a slot in the table;
 * - over-share: the address holds its share and none of its connections could be shed: answer 503 +
 *   Retry-After at once and close (the connection takes no slot of the table);
 * - over-capacity: the table is full and nothing could be shed: answer the request with 503 + Retry-After, then close;
 * - drop: a flood (over twice the table, or as many refused connections lingering as the table holds): destroy.
 */
export type Admission = 'accept' | 'over-share' | 'over-capacity' | 'drop';

/** `::ffff:203.0.113.5` (an IPv4 peer on a dual-stack socket) is 203.0.113.5. */
const normalise = (address: string) => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1').toLowerCase();

export class ConnectionTable {
  readonly #entries = new Map<Socket, Entry>();
  readonly #perAddress = new Map<string, number>();
  readonly #isTrusted: (address: string) => boolean;
  /** Connections answered 503 for being over their address's share, not yet closed. */
  #refusing = 0;

  constructor(
    private readonly max: number,
    private readonly perAddress: number,
    trustedProxies: readonly string[],
  ) {
    const list = trustedProxyList(trustedProxies);
    this.#isTrusted = (address) => isIP(address) !== 0 && list.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
  }

  get open(): number {
    return this.#entries.size;
  }

  /**
   * Admits a new connection (see Admission). An address at its share first has one of its own unused
   * connections shed (it left an idle keep-alive connection behind, or one that never spoke); a full table
   * sheds one from anyone, the address holding the most silent ones first.
   */
  admit(socket: Socket): Admission {
    const address = normalise(socket.remoteAddress ?? 'unknown');
    const held = this.#perAddress.get(address) ?? 0;
    if (this.perAddress > 0 && held >= this.perAddress && !this.#isTrusted(address) && !this.#shedOne(address)) {
      // Answered connections linger only until the client reads its 503 and closes; bounded like the table.
      if (this.#refusing >= this.max) return 'drop';
      this.#refusing += 1;
      socket.once('close', () => void (this.#refusing -= 1));
      return 'over-share';
    }
    if (this.#entries.size >= this.max && !this.#shedOne()) {
      if (this.#entries.size >= 2 * this.max) return 'drop';
      this.#add(socket, address);
      return 'over-capacity';
    }
    this.#add(socket, address);
    return 'accept';
  }

  /** A request arrived on `socket`; `done` is called when it is answered. */
  requestStarted(socket: Socket): () => void {
    const entry = this.#entries.get(socket);
    if (!entry) return () => {};
    entry.busy += 1;
    entry.spoke = true;
    return () => {
      entry.busy -= 1;
      entry.quietSince = performance.now();
    };
  }

  #add(socket: Socket, address: string): void {
    this.#entries.set(socket, { address, busy: 0, spoke: false, quietSince: performance.now() });
    this.#perAddress.set(address, (this.#perAddress.get(address) ?? 0) + 1);
    socket.once('close', () => {
      this.#entries.delete(socket);
      const left = (this.#perAddress.get(address) ?? 1) - 1;
      if (left === 0) this.#perAddress.delete(address);
      else this.#perAddress.set(address, left);
    });
  }

  /**
   * Closes one connection (of `address` only, when given) that has held a slot unused for SHED_AFTER_MS:
   * one that never sent a request, from the address holding the most, else one idle between requests.
   * Answers whether one was closed. (A linear scan, only when the table or a share is full: at most
   * maxConnections entries.)
   */
  #shedOne(address?: string): boolean {
    let silent: [Socket, Entry] | undefined;
    let idle: Socket | undefined;
    const quietBefore = performance.now() - SHED_AFTER_MS;
    for (const [socket, entry] of this.#entries) {
      if (entry.busy > 0 || socket.destroyed || entry.quietSince > quietBefore || (address !== undefined && entry.address !== address)) continue;
      if (!entry.spoke) {
        if (!silent || (this.#perAddress.get(entry.address) ?? 0) > (this.#perAddress.get(silent[1].address) ?? 0)) silent = [socket, entry];
      } else idle ??= socket;
    }
    const victim = silent?.[0] ?? idle;
    if (!victim) return false;
    // The slot is free at once; the close event only tidies the counts.
    this.#entries.delete(victim);
    victim.destroy();
    return true;
  }
}
