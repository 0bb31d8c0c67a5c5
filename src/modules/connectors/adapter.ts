// What every connector adapter does for the outbox and for sync: one small interface, one file per
// remote system (opal-adapter.ts: Opal's HTTP protocol; postgres-adapter.ts: a PostgreSQL server), and
// one line per connector type in adapters.ts.
import type { AppContext } from '../../context.ts';
import type { Attempt } from '../../outbox/index.ts';
import type { EdgeKindName } from '../access/edges.ts';
import type { RemoteEdge, RemoteItem, RemoteLevel, RemoteUser } from './remote-schemas.ts';
import type { ConnectorRow } from './store.ts';
import type { SyncBudget } from './sync-budget.ts';

/** One edge as the remote side names it, and whether it should exist there. */
export interface PushTarget {
  kind: EdgeKindName;
  /** The user's remote id (user kinds) or the member group's remote id (group kinds). */
  remotePrincipalId: string;
  /** The remote resource or group id. */
  remoteItemId: string;
  /** The access level's remote id ('' is the default level: sent as no access_level_id). */
  level: string;
  present: boolean;
}

/**
 * A part of what a sync reads, checked (remote-schemas.ts); ids are remote ids. An adapter yields them in
 * this order, so each can be written as it comes: users; then each resource (with its access levels)
 * followed by its resource_user edges; then every group; then the group edges. `refused` names the
 * items that failed the checks (each becomes a sync error).
 */
export type RemoteBatch =
  | { type: 'users'; users: RemoteUser[] }
  | { type: 'resource'; resource: RemoteItem & { access_levels: RemoteLevel[] } }
  | { type: 'groups'; groups: RemoteItem[] }
  | { type: 'edges'; kind: EdgeKindName; edges: RemoteEdge[] }
  | { type: 'refused'; refused: string[] };

export interface ConnectorAdapter {
  /** Is the remote side reachable and does it accept our credentials? */
  status(signal?: AbortSignal): Promise<Attempt>;
  /** Makes the edge present or absent remotely; "already so" is success. */
  push(target: PushTarget, signal?: AbortSignal): Promise<Attempt>;
  /**
   * Reads the remote side (users, items, current access) for a sync, part by part, within `budget`: a
   * bound passed ends the reading early (`budget.stoppedAt` says which). Throws an Error naming what failed.
   */
  read(budget: SyncBudget, signal?: AbortSignal): AsyncGenerator<RemoteBatch>;
  /**
   * The remote id of a Gatehouse user, resolving (and remembering) it if needed. A system that creates
   * users (Opal's POST /users; PostgreSQL with GATEHOUSE_POSTGRES_CREATE_ROLES) creates one for a person
   * it does not know, and remembers Gatehouse made it (made-users.ts); else a code such as ERR_REMOTE_USER_NOT_FOUND.
   */
  remoteUser(ctx: AppContext, userId: string, signal?: AbortSignal): Promise<{ id: string } | { code: string; error: string }>;
  /** Removes a remote user Gatehouse created, after the person was offboarded; "already gone" is success. Absent: never removed. */
  deprovisionUser?(remoteUserId: string, signal?: AbortSignal): Promise<Attempt>;
}

/** A kind of remote system: the edge kinds it has, and its adapter for one connector row. */
export interface AdapterFactory {
  /** Which edge kinds this remote system has: only these are pushed to it or read from it. */
  readonly kinds: readonly EdgeKindName[];
  open(ctx: AppContext, connector: ConnectorRow): ConnectorAdapter;
}
