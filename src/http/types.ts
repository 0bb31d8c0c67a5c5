// The request as Gatehouse's HTTP layer sees it, and who is calling.
import type { Request } from 'polka';
import type { Protocol } from './protocol.ts';
import type { OrganizationRole } from '../modules/users/roles.ts';

/** The authenticated caller, resolved from the bearer token; also the actor of audit events. */
export interface Caller {
  userId: string;
  name: string;
  email: string;
  tokenId: string | null;
  tokenLabel: string | null;
  tokenPreview: string | null;
  accessLevel: 'FULL_ACCESS' | 'READ_ONLY';
  /** The token's user's organization role, read when the token is checked (a change applies to the next call). */
  role: OrganizationRole;
  ip: string | null;
}

export interface GatehouseRequest extends Request {
  requestId: string;
  startedAt: bigint;
  /** The client's address: the socket's peer, or what trusted proxies forwarded (client-address.ts). */
  clientIp: string;
  caller?: Caller;
  /** The matched route's pattern, e.g. /v1/users/:user_id, for logs. */
  routeTemplate?: string;
  /** The matched route's protocol, which answers its failures (else the one owning the path). */
  protocol?: Protocol;
}
