// What a connector type is: one object per remote system that carries its whole kind — its connector
// type, the app type whose apps have it, the resource type of what a sync finds, its configuration
// (a Valibot schema: the API validates it, the console draws the form from it), which of its fields
// are secrets (masked everywhere), the edge kinds it carries, and the adapter that talks to it.
// One file per type (opal-adapter.ts, postgres-adapter.ts), one line in the table of adapters.ts.
import type * as v from 'valibot';
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

/** A user's remote id, or why there is none (`permanent`: retrying cannot help, the push is FAILED at once). */
export type RemoteUserAnswer = { id: string } | { code: string; error: string; permanent?: boolean };

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
  remoteUser(ctx: AppContext, userId: string, signal?: AbortSignal): Promise<RemoteUserAnswer>;
  /**
   * Whether an admin may link the remote user to a person (PUT …/connector/user-links), beyond its having
   * been read by a sync: PostgreSQL refuses a role with privileges Gatehouse never grants, or its own login.
   * Absent: any remote user the sync read may be linked.
   */
  checkLink?(remoteUserId: string, signal?: AbortSignal): Promise<{ ok: true } | { ok: false; error: string }>;
  /** Removes a remote user Gatehouse created, after the person was offboarded; "already gone" is success. Absent: never removed. */
  deprovisionUser?(remoteUserId: string, signal?: AbortSignal): Promise<Attempt>;
}

/** A configuration: a Valibot object of fields, each with a `v.title` (the form's label) and a `v.description` (its hint). */
export type ConfigurationSchema = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;

/**
 * How a secret field is masked wherever it is shown (GET, PUT's answer, events, logs): `secret` whole
 * (a signing secret), `url` its password and query values (a connection URL; url-secrets.ts).
 */
export type SecretMask = 'secret' | 'url';

/** A connector type, whole. `C` is its configuration's schema. */
export interface ConnectorKind<C extends ConfigurationSchema = ConfigurationSchema> {
  /** The API's `connector_type` (OPAL_HTTP). */
  readonly type: string;
  /** In words, for people (the console): "Opal connector protocol". */
  readonly name: string;
  /** The app type (AppTypeEnum) whose apps have this connector; one type per app type. */
  readonly appType: string;
  /** The resource type (ResourceTypeEnum) a sync gives the resources it finds. */
  readonly resourceType: string;
  /** The configuration's fields, validated on PUT and again when the adapter opens; stored as one JSON column. */
  readonly configuration: C;
  /** Which configuration fields are secrets, and how each is masked. */
  readonly secrets: { readonly [K in keyof v.InferOutput<C>]?: SecretMask };
  /** Which edge kinds this remote system has: only these are pushed to it or read from it. */
  readonly kinds: readonly EdgeKindName[];
  /**
   * Whether access of `kind` at an item's level `level` changes anything in the remote system (absent:
   * every level does). A level that carries nothing is not offered by the console's request and Grant
   * forms, and the dry run of a request for it warns (connectors/levels.ts).
   */
  carriesLevel?(kind: EdgeKindName, level: string): boolean;
  /** The `remote_info` a resource the sync creates carries, as the reference spells it for this kind (none: only remote_resource_id). */
  remoteInfo?(remoteResourceId: string): Record<string, unknown>;
  /** The adapter for one connector, given its configuration parsed by `configuration`. */
  open(ctx: AppContext, connector: ConnectorRow, configuration: v.InferOutput<C>): ConnectorAdapter;
}

/** Declares a connector type, its configuration typed from its schema (the table in adapters.ts holds them erased). */
export const defineConnectorKind = <C extends ConfigurationSchema>(kind: ConnectorKind<C>): ConnectorKind => kind as unknown as ConnectorKind;
