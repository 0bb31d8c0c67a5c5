// The built-in PostgreSQL connector (app type POSTGRES): the server is a POSTGRES_INSTANCE resource whose
// access levels are its grantable roles; access at a level is membership of the person's role in that
// role (GRANT role TO login / REVOKE). A person's role is only one an admin chose: the role Gatehouse
// created for that user id (its comment names the id), or a login role an admin linked to them
// (PUT /v1/apps/{app_id}/connector/user-links). Never by name: a role named like someone's email, or its
// part before '@', may be a service's (docs/connectors.md). A person with none is ERR_REMOTE_USER_NOT_LINKED.
import { Socket, type SocketConnectOpts } from 'node:net';
import pg from 'pg';
import * as v from 'valibot';
import { Text } from '../../http/common-schemas.ts';
import { AddressRefused, addressPolicy, type AddressPolicy } from '../../http/outbound.ts';
import type { AppContext } from '../../context.ts';
import type { Attempt } from '../../outbox/index.ts';
import { defineConnectorKind, type ConnectorAdapter, type RemoteBatch, type RemoteUserAnswer } from './adapter.ts';
import { checkRemote, RemoteEdge, RemoteItem, RemoteLevel, RemoteUser } from './remote-schemas.ts';
import type { ConnectorRow } from './store.ts';
import { recordMadeUser } from './made-users.ts';

/** How many login roles are matched to users per part a sync writes (each is one lookup on the event loop). */
const LOGIN_SLICE = 500;

/** Roles Gatehouse never grants or reads as levels: PostgreSQL's own and superuser-ish ones. */
const OWN_ROLES = "r.rolname NOT LIKE 'pg\\_%' AND NOT r.rolsuper";
/**
 * A role Gatehouse created for a person (GATEHOUSE_POSTGRES_CREATE_ROLES) says so in its comment, so the
 * server itself tells people's roles from grantable ones whatever Gatehouse's database holds. The comment
 * names the person's user id (an email may change hands; an id does not): `Created by Gatehouse for user
 * <id> (<email>)`. Roles made before said only `Created by Gatehouse for <email>`: still Gatehouse's.
 */
const MADE_MARK = 'Created by Gatehouse for ';
const made = (alias: string) => `coalesce(shobj_description(${alias}.oid, 'pg_authid'), '') LIKE '${MADE_MARK}%'`;
const markOf = (user: { user_id: string; email: string }) => `${MADE_MARK}user ${user.user_id} (${user.email})`;
/** The LIKE pattern of the mark naming `userId` (a user id is a UUID: no LIKE wildcards in it). */
const markPattern = (userId: string) => `${MADE_MARK}user ${userId} (%`;
/** Role attributes that are privileges Gatehouse never grants: a role holding one is no person's to be linked to. */
const PRIVILEGES = ['rolsuper', 'rolcreaterole', 'rolcreatedb', 'rolreplication', 'rolbypassrls'] as const;
const NOT_LINKED = 'ERR_REMOTE_USER_NOT_LINKED';
/** PostgreSQL's limit on a role name, in bytes (NAMEDATALEN - 1): a longer name would be cut silently. */
const MAX_ROLE_NAME_BYTES = 63;

/**
 * A socket for pg that obeys GATEHOUSE_PRIVATE_ADDRESSES=deny on the address it connects to: an address
 * written in the URL is checked as it is, a name through the policy's lookup (resolved, every address checked,
 * then connected to that one), a Unix socket refused. Refused before a byte is sent: no user name, no password.
 */
class PublicOnlySocket extends Socket {
  constructor(private readonly policy: AddressPolicy) {
    super();
  }

  // pg calls connect(port, host), or connect(path) for a Unix socket.
  override connect(...args: unknown[]): this {
    const [port, host] = args;
    const refuse = (address: string) => {
      process.nextTick(() => this.destroy(new AddressRefused(address)));
      return this;
    };
    if (typeof host !== 'string' || host === '' || (typeof port !== 'number' && typeof port !== 'string')) return refuse('a Unix socket');
    const bare = host.replace(/^\[|\]$/g, '');
    if (this.policy.refuses(bare)) return refuse(bare);
    return super.connect({ port: Number(port), host: bare, lookup: this.policy.lookup } as SocketConnectOpts);
  }
}

/** What every failure to reach the server before it authenticated us reads as: refused, unreachable, silent or closed look alike, so the connector is no port scanner. */
const unreachable = (timeoutMs: number) =>
  `could not connect to the PostgreSQL server (refused, unreachable, no answer within ${timeoutMs} ms, or closed before authenticating)`;

/** A failure of connect(): the server's own error (it answered: a SQLSTATE), the policy's refusal, or else the one uniform sentence. */
function connectFailure(err: unknown, timeoutMs: number): Error {
  if (err instanceof AddressRefused) return err;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return err as Error;
  return Object.assign(new Error(unreachable(timeoutMs)), { code: 'UNREACHABLE' });
}

/** A PostgreSQL error as a PropagationStatusEnum code. */
function classify(err: unknown, timeoutMs: number): { code: string; error: string } {
  const e = err as { code?: string; message?: string };
  if (e.code === 'UNREACHABLE' || err instanceof AddressRefused) return { code: 'ERR_REMOTE_INTERNAL_ERROR', error: String(e.message).slice(0, 300) };
  const message = String(e.message ?? err).slice(0, 300);
  if (e.code === '42704') {
    return { code: /role "[^"]*" does not exist/.test(message) && message.includes('login') ? 'ERR_REMOTE_USER_NOT_FOUND' : 'ERR_REMOTE_RESOURCE_NOT_FOUND', error: message };
  }
  if (e.code === '42501' || e.code === '28P01' || e.code === '28000') return { code: 'ERR_NOT_AUTHORIZED_TO_QUERY_RESOURCE', error: message };
  if (/timeout|timed out/i.test(message)) return { code: 'ERR_TIMEOUT', error: `no answer within ${timeoutMs} ms` };
  return { code: 'ERR_REMOTE_INTERNAL_ERROR', error: message };
}

/** A PostgreSQL connector's configuration: the server, database and the user Gatehouse signs in as. */
const PostgresConfiguration = v.object({
  connection_url: v.pipe(
    Text(2048),
    v.trim(),
    v.check((raw) => URL.canParse(raw) && ['postgres:', 'postgresql:'].includes(new URL(raw).protocol), 'must be a postgres:// or postgresql:// URL'),
    v.title('Connection URL'),
    v.description('postgres://user:password@host:5432/database — the user needs CREATEROLE (or ADMIN OPTION on the roles it grants).'),
  ),
});
type PostgresConfiguration = v.InferOutput<typeof PostgresConfiguration>;

function openPostgresAdapter(ctx: AppContext, connector: ConnectorRow, configuration: PostgresConfiguration): ConnectorAdapter {
  const timeoutMs = connector.timeout_ms;
  /** Runs `fn` on a fresh connection (a server restarted between pushes is simply reconnected to). */
  const withClient = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({
      connectionString: configuration.connection_url,
      connectionTimeoutMillis: timeoutMs,
      statement_timeout: timeoutMs,
      query_timeout: timeoutMs,
      application_name: 'gatehouse',
      ...(addressPolicy(ctx.config).denies && { stream: () => new PublicOnlySocket(addressPolicy(ctx.config)) }),
    });
    // An error after connecting (the server going away) must not become an unhandled 'error' event.
    client.on('error', () => {});
    try {
      try {
        await client.connect();
      } catch (err) {
        throw connectFailure(err, timeoutMs);
      }
      return await fn(client);
    } finally {
      await client.end().catch(() => {});
    }
  };

  /** The role this server says Gatehouse created for the user `userId` (its comment names the id), if any. */
  const roleMarkedFor = (client: pg.Client, userId: string) =>
    client.query<{ rolname: string }>(`SELECT r.rolname FROM pg_roles r WHERE shobj_description(r.oid, 'pg_authid') LIKE $1 AND ${OWN_ROLES} ORDER BY r.rolname LIMIT 1`, [markPattern(userId)]);

  /** Creates the person's role (named by their email, never a password) and remembers Gatehouse made it. */
  const createRole = async (ctx2: AppContext, user: { user_id: string; email: string }): Promise<RemoteUserAnswer> => {
    const name = user.email;
    if (Buffer.byteLength(name) > MAX_ROLE_NAME_BYTES) return { code: NOT_LINKED, error: `no role is linked to ${name}, and a role named by it would be longer than PostgreSQL's ${MAX_ROLE_NAME_BYTES} bytes; an admin may link one` };
    const kind = ctx2.config.postgresCreateRoles === 'login' ? 'LOGIN' : 'NOLOGIN';
    try {
      await withClient(async (client) => {
        const role = client.escapeIdentifier(name);
        await client.query('BEGIN');
        await client.query(`CREATE ROLE ${role} ${kind}`);
        await client.query(`COMMENT ON ROLE ${role} IS ${client.escapeLiteral(markOf(user))}`);
        await client.query('COMMIT');
      });
    } catch (err) {
      // A role of that name Gatehouse did not make for this person (a service's, or the one made for the
      // email's former holder): never taken over; the person starts unmatched until an admin links a role.
      if ((err as { code?: string }).code === '42710') return { code: NOT_LINKED, error: `a role named ${name} exists that Gatehouse did not create for this person; it is not taken over (an admin may link a role: PUT /v1/apps/{app_id}/connector/user-links)` };
      return classify(err, timeoutMs);
    }
    const recorded = recordMadeUser(ctx2, connector.app_id, name, user);
    return recorded.ok ? { id: name } : { code: recorded.code, error: recorded.error, permanent: true };
  };

  return {
    async status() {
      try {
        await withClient((client) => client.query('SELECT 1'));
        return { ok: true };
      } catch (err) {
        return { ok: false, ...classify(err, timeoutMs) };
      }
    },

    async push(target): Promise<Attempt> {
      // The default level ('') is the instance itself: no role to grant, nothing to do remotely.
      if (target.level === '') return { ok: true };
      try {
        await withClient(async (client) => {
          const role = client.escapeIdentifier(target.level);
          const login = client.escapeIdentifier(target.remotePrincipalId);
          const exists = await client.query<{ rolname: string }>('SELECT rolname FROM pg_roles WHERE rolname = ANY($1)', [[target.level, target.remotePrincipalId]]);
          const names = new Set(exists.rows.map((r) => r.rolname));
          if (!names.has(target.level)) throw Object.assign(new Error(`role "${target.level}" does not exist`), { code: 'ROLE_MISSING' });
          if (!names.has(target.remotePrincipalId)) throw Object.assign(new Error(`login role "${target.remotePrincipalId}" does not exist`), { code: 'LOGIN_MISSING' });
          // GRANT of a membership held and REVOKE of one not held only warn: both are "already so".
          await client.query(target.present ? `GRANT ${role} TO ${login}` : `REVOKE ${role} FROM ${login}`);
        });
        return { ok: true };
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'ROLE_MISSING') return target.present ? { ok: false, code: 'ERR_REMOTE_RESOURCE_NOT_FOUND', error: (err as Error).message } : { ok: true };
        if (code === 'LOGIN_MISSING') return target.present ? { ok: false, code: 'ERR_REMOTE_USER_NOT_FOUND', error: (err as Error).message } : { ok: true };
        return { ok: false, ...classify(err, timeoutMs) };
      }
    },

    async remoteUser(ctx2, userId) {
      const known = ctx2.stores.connectors.remoteUserOf(connector.app_id, userId);
      if (known) return { id: known };
      const user = ctx2.stores.users.get(userId);
      if (!user) return { code: NOT_LINKED, error: 'the user does not exist' };
      // Gatehouse's record of the role it made is gone (a restored database, a link dropped): the server's mark names the id.
      let marked: string | undefined;
      try {
        marked = (await withClient((client) => roleMarkedFor(client, userId))).rows[0]?.rolname;
      } catch (err) {
        return classify(err, timeoutMs);
      }
      if (marked) {
        const role = marked;
        ctx2.db.transaction(() => ctx2.stores.connectors.linkMadeUser(connector.app_id, role, userId, user.email)).immediate();
        return { id: role };
      }
      if (ctx2.config.postgresCreateRoles !== 'off') return createRole(ctx2, user);
      return { code: NOT_LINKED, error: 'no PostgreSQL role is linked to this person: Gatehouse uses only a role it created for them, or one an admin linked (PUT /v1/apps/{app_id}/connector/user-links)' };
    },

    async checkLink(roleName) {
      try {
        const found = await withClient((client) => client.query<Record<(typeof PRIVILEGES)[number] | 'rolcanlogin' | 'own' | 'mine' | 'owns', boolean>>(
          `SELECT r.rolcanlogin, ${PRIVILEGES.map((p) => `r.${p}`).join(', ')}, r.rolname = current_user AS own, ${made('r')} AS mine,
             EXISTS (SELECT 1 FROM pg_class c WHERE c.relowner = r.oid) AS owns
           FROM pg_roles r WHERE r.rolname = $1 AND r.rolname NOT LIKE 'pg\\_%'`, [roleName]));
        const role = found.rows[0];
        if (!role) return { ok: false, error: 'no such role on the server' };
        if (role.own) return { ok: false, error: 'is the role Gatehouse signs in as (the connector\'s own)' };
        const held = PRIVILEGES.filter((p) => role[p]).map((p) => p.slice(3).toUpperCase());
        if (held.length > 0) return { ok: false, error: `has privileges Gatehouse does not grant (${held.join(', ')}): link only a person's own role` };
        if (role.owns) return { ok: false, error: 'owns tables or other relations in the database: a service\'s role, not a person\'s' };
        if (!role.rolcanlogin && !role.mine) return { ok: false, error: 'is not a login role (roles without LOGIN are what Gatehouse grants)' };
        return { ok: true };
      } catch (err) {
        return { ok: false, error: classify(err, timeoutMs).error };
      }
    },

    async deprovisionUser(roleName) {
      try {
        await withClient(async (client) => {
          // Only a role this server says Gatehouse created is dropped: never one it found there.
          const mine = await client.query(`SELECT 1 FROM pg_roles r WHERE r.rolname = $1 AND ${made('r')}`, [roleName]);
          if (mine.rowCount) await client.query(`DROP ROLE IF EXISTS ${client.escapeIdentifier(roleName)}`);
        });
        return { ok: true };
      } catch (err) {
        // 2BP01: the role still owns objects or holds privileges; dropping it is the server admin's call.
        if ((err as { code?: string }).code === '2BP01') return { ok: false, code: 'ERR_REMOTE_UNRECOVERABLE_ERROR', error: `role ${roleName} owns objects or holds privileges: ${(err as Error).message}`.slice(0, 300), permanent: true };
        return { ok: false, ...classify(err, timeoutMs) };
      }
    },

    async *read(budget): AsyncGenerator<RemoteBatch> {
      // Read in one go on one connection (PostgreSQL answers whole result sets), each query limited to
      // what the budget has left plus one, so a server with more rows than the bound stops the sync there.
      const read = await withClient(async (client) => {
        const rows = async <R extends pg.QueryResultRow>(text: string): Promise<R[]> => {
          if (!budget.mayRead()) return [];
          const result = await client.query<R>(`${text} LIMIT $1`, [budget.itemsLeft + 1]);
          return result.rows.slice(0, budget.takeRows(result.rows.length));
        };
        const db = (await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0]!.db;
        // People's roles: login roles and those Gatehouse created, but never the role Gatehouse itself signs in as.
        const logins = (await rows<{ rolname: string }>(`SELECT r.rolname FROM pg_roles r WHERE (r.rolcanlogin OR ${made('r')}) AND ${OWN_ROLES} AND r.rolname <> current_user ORDER BY r.rolname`)).map((r) => r.rolname);
        const grantable = (await rows<{ rolname: string }>(`SELECT r.rolname FROM pg_roles r WHERE NOT r.rolcanlogin AND NOT ${made('r')} AND ${OWN_ROLES} ORDER BY r.rolname`)).map((r) => r.rolname);
        const members = await rows<{ role: string; member: string }>(
          `SELECT g.rolname AS role, m.rolname AS member FROM pg_auth_members am
           JOIN pg_roles g ON g.oid = am.roleid JOIN pg_roles m ON m.oid = am.member
           WHERE (m.rolcanlogin OR ${made('m')}) AND m.rolname <> current_user AND NOT g.rolcanlogin AND NOT ${made('g')} ORDER BY 1, 2`,
        );
        return { db, logins, grantable, members };
      });
      const refused: string[] = [];
      const instance = checkRemote(RemoteItem, [{ id: read.db, name: read.db, description: 'A PostgreSQL database; its access levels are the roles Gatehouse may grant.' }], 'database');
      const levels = checkRemote(RemoteLevel, read.grantable.map((r) => ({ id: r, name: r })), 'role');
      refused.push(...instance.refused, ...levels.refused);
      // Login roles carry no email: a role is a person's only by Gatehouse's own link (made for them, or an admin's).
      for (let at = 0; at < read.logins.length; at += LOGIN_SLICE) {
        const users = checkRemote(RemoteUser, read.logins.slice(at, at + LOGIN_SLICE).map((login) => ({ id: login, email: '' })), 'login role');
        refused.push(...users.refused);
        yield { type: 'users', users: users.ok };
      }
      const db = instance.ok[0];
      if (db) {
        yield { type: 'resource', resource: { ...db, access_levels: levels.ok } };
        const granted = new Set(levels.ok.map((l) => l.id));
        const edges = checkRemote(RemoteEdge, read.members.filter((m) => granted.has(m.role)).map((m) => ({ principal: m.member, item: db.id, level: m.role })), 'membership of');
        refused.push(...edges.refused);
        yield { type: 'edges', kind: 'resource_user', edges: edges.ok };
      }
      if (refused.length > 0) yield { type: 'refused', refused };
    },
  };
}

/** PostgreSQL: POSTGRES apps; the server is a POSTGRES_INSTANCE carrying one kind, a user's membership of a role (resource users at a level). */
export const postgresConnector = defineConnectorKind({
  type: 'POSTGRES',
  name: 'PostgreSQL',
  appType: 'POSTGRES',
  resourceType: 'POSTGRES_INSTANCE',
  configuration: PostgresConfiguration,
  secrets: { connection_url: 'url' },
  kinds: ['resource_user'],
  // The default level ('') is the database itself: there is no role to grant, so access at it changes nothing on the server.
  carriesLevel: (_kind, level) => level !== '',
  open: openPostgresAdapter,
});
