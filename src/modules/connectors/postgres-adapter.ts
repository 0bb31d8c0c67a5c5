// The built-in PostgreSQL connector (app type POSTGRES): the server is a POSTGRES_INSTANCE resource whose
// access levels are its grantable roles; access at a level is membership of the user's login role in
// that role (GRANT role TO login / REVOKE). A user's login role is the one named by their whole email or
// its part before '@' (docs/connectors.md); a user with none is ERR_REMOTE_USER_NOT_LINKED.
import pg from 'pg';
import type { AppContext } from '../../context.ts';
import type { Attempt } from '../../outbox/index.ts';
import type { AdapterFactory, ConnectorAdapter, RemoteSnapshot } from './adapter.ts';
import type { ConnectorRow } from './store.ts';

/** Roles Gatehouse never grants or reads as levels: PostgreSQL's own and superuser-ish ones. */
const OWN_ROLES = "r.rolname NOT LIKE 'pg\\_%' AND NOT r.rolsuper";

/** A PostgreSQL error as a PropagationStatusEnum code. */
function classify(err: unknown, timeoutMs: number): { code: string; error: string } {
  const e = err as { code?: string; message?: string };
  const message = String(e.message ?? err).slice(0, 300);
  if (e.code === '42704') {
    return { code: /role "[^"]*" does not exist/.test(message) && message.includes('login') ? 'ERR_REMOTE_USER_NOT_FOUND' : 'ERR_REMOTE_RESOURCE_NOT_FOUND', error: message };
  }
  if (e.code === '42501' || e.code === '28P01' || e.code === '28000') return { code: 'ERR_NOT_AUTHORIZED_TO_QUERY_RESOURCE', error: message };
  if (/timeout|timed out/i.test(message)) return { code: 'ERR_TIMEOUT', error: `no answer within ${timeoutMs} ms` };
  return { code: 'ERR_REMOTE_INTERNAL_ERROR', error: message };
}

function openPostgresAdapter(ctx: AppContext, connector: ConnectorRow): ConnectorAdapter {
  const timeoutMs = connector.timeout_ms;
  /** Runs `fn` on a fresh connection (a server restarted between pushes is simply reconnected to). */
  const withClient = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({
      connectionString: connector.connection_url!,
      connectionTimeoutMillis: timeoutMs,
      statement_timeout: timeoutMs,
      query_timeout: timeoutMs,
      application_name: 'gatehouse',
    });
    // An error after connecting (the server going away) must not become an unhandled 'error' event.
    client.on('error', () => {});
    try {
      await client.connect();
      return await fn(client);
    } finally {
      await client.end().catch(() => {});
    }
  };

  const loginRoles = (client: pg.Client) =>
    client.query<{ rolname: string }>(`SELECT r.rolname FROM pg_roles r WHERE r.rolcanlogin AND ${OWN_ROLES} ORDER BY r.rolname`);

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
      let logins: string[];
      try {
        logins = (await withClient(loginRoles)).rows.map((r) => r.rolname);
      } catch (err) {
        return classify(err, timeoutMs);
      }
      const user = ctx2.stores.users.get(userId);
      const email = user?.email ?? '';
      const local = email.slice(0, email.indexOf('@')).toLowerCase();
      const login = logins.find((name) => name.toLowerCase() === email.toLowerCase()) ?? logins.find((name) => name.toLowerCase() === local);
      if (!login) return { code: 'ERR_REMOTE_USER_NOT_LINKED', error: `no login role is named ${email} or ${local}` };
      ctx2.db.transaction(() => ctx2.stores.connectors.linkUser(connector.app_id, login, email)).immediate();
      return { id: login };
    },

    async snapshot(): Promise<RemoteSnapshot> {
      return withClient(async (client) => {
        const db = (await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0]!.db;
        const logins = (await loginRoles(client)).rows.map((r) => r.rolname);
        const grantable = (await client.query<{ rolname: string }>(
          `SELECT r.rolname FROM pg_roles r WHERE NOT r.rolcanlogin AND ${OWN_ROLES} ORDER BY r.rolname`,
        )).rows.map((r) => r.rolname);
        const members = (await client.query<{ role: string; member: string }>(
          `SELECT g.rolname AS role, m.rolname AS member FROM pg_auth_members am
           JOIN pg_roles g ON g.oid = am.roleid JOIN pg_roles m ON m.oid = am.member
           WHERE m.rolcanlogin AND NOT g.rolcanlogin ORDER BY 1, 2`,
        )).rows;
        const levels = new Set(grantable);
        return {
          // Login roles carry no email: the rule finds the user they name.
          users: logins.map((login) => ({ id: login, email: ctx.stores.connectors.userByLogin(login)?.email ?? '' })),
          resources: [{ id: db, name: db, description: 'A PostgreSQL database; its access levels are the roles Gatehouse may grant.', access_levels: grantable.map((r) => ({ id: r, name: r })) }],
          groups: [],
          edges: members.filter((m) => levels.has(m.role)).map((m) => ({ kind: 'resource_user' as const, principal: m.member, item: db, level: m.role })),
        };
      });
    },
  };
}

/** A PostgreSQL server carries one kind: a user's membership of a role (resource users at a level). */
export const postgresAdapter: AdapterFactory = {
  kinds: ['resource_user'],
  open: openPostgresAdapter,
};
