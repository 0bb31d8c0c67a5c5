// The address people reach this service at, which every link Gatehouse hands out (sign-in links,
// notices) is made from: GATEHOUSE_PUBLIC_URL, else the address the running `serve` recorded, else
// the configured host and port.
import type { AppContext } from '../context.ts';
import { recordedServiceAddress } from '../db/meta.ts';

/** `http://HOST:PORT` for a listening address; a wildcard host (all interfaces) is reached on loopback. */
export function listeningBase(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/**
 * The base of every link Gatehouse makes. Never the request's Host header: a link mailed to someone
 * must not point wherever the asker's Host said (a forged Host would send them, secret and all, elsewhere).
 */
export function publicBase(ctx: AppContext): string {
  return ctx.config.publicUrl ?? recordedServiceAddress(ctx.db) ?? listeningBase(ctx.config.host, ctx.config.port);
}
