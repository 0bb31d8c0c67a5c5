// SQL for console sign-in: sign-in sessions (web_sessions), one-time sign-in links, OpenID sign-ins in flight.
import type { Db } from '../../db/open.ts';
import type { OrganizationRole } from '../users/roles.ts';

export type SignInMethod = 'LOGIN_LINK' | 'OIDC';
export type EndReason = 'SIGNED_OUT' | 'REVOKED' | 'IDLE' | 'EXPIRED' | 'OFFBOARDED' | 'DEMOTED' | 'EMAIL_CHANGED';

export interface WebSessionRow {
  seq: number;
  id: string;
  user_id: string;
  role_at_start: OrganizationRole;
  method: SignInMethod;
  ip_address: string | null;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  ended_at: string | null;
  end_reason: EndReason | null;
}

/** A live session found by its cookie, with what authentication needs of its user. */
export interface WebSessionHolder extends WebSessionRow {
  full_name: string;
  email: string;
  organization_role: OrganizationRole;
  hr_idp_status: string;
}

export interface NewWebSession {
  id: string;
  secretHash: Buffer;
  userId: string;
  role: OrganizationRole;
  method: SignInMethod;
  ip: string | null;
  userAgent: string | null;
  now: string;
  expiresAt: string;
}

export function createWebSessionStore(db: Db) {
  const insert = db.prepare<NewWebSession>(
    `INSERT INTO web_sessions (id, secret_hash, user_id, role_at_start, method, ip_address, user_agent, created_at, last_seen_at, expires_at)
     VALUES (@id, @secretHash, @userId, @role, @method, @ip, @userAgent, @now, @now, @expiresAt)`,
  );
  const bySecret = db.prepare<[Buffer], WebSessionHolder>(
    `SELECT s.*, u.full_name, u.email, u.organization_role, u.hr_idp_status
     FROM web_sessions s JOIN users u ON u.id = s.user_id
     WHERE s.secret_hash = ?`,
  );
  const byId = db.prepare<[string], WebSessionRow>('SELECT * FROM web_sessions WHERE id = ?');
  const touch = db.prepare<[string, string]>('UPDATE web_sessions SET last_seen_at = ? WHERE id = ?');
  const end = db.prepare<[string, EndReason, string]>(
    'UPDATE web_sessions SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL',
  );
  // Live as far as the clock goes: not ended, not past either limit (an offboarded user's are ended when next seen).
  const livePage = db.prepare<{ userId: string | null; now: string; idleSince: string; after: number; limit: number }, WebSessionRow>(
    `SELECT s.* FROM web_sessions s JOIN users u ON u.id = s.user_id
     WHERE s.ended_at IS NULL AND s.expires_at > @now AND s.last_seen_at > @idleSince
       AND u.hr_idp_status NOT IN ('SUSPENDED', 'DEPROVISIONED', 'DELETED')
       AND (s.role_at_start <> 'ADMIN' OR u.organization_role = 'ADMIN')
       AND (@userId IS NULL OR s.user_id = @userId) AND s.seq > @after
     ORDER BY s.seq LIMIT @limit`,
  );
  const liveOfUser = db.prepare<[string], WebSessionRow>('SELECT * FROM web_sessions WHERE user_id = ? AND ended_at IS NULL');

  const insertLink = db.prepare<[Buffer, string, string, string]>(
    'INSERT INTO login_links (secret_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
  );
  const linkByHash = db.prepare<[Buffer], { user_id: string; expires_at: string; used_at: string | null }>(
    'SELECT user_id, expires_at, used_at FROM login_links WHERE secret_hash = ?',
  );
  const useLink = db.prepare<[string, Buffer]>('UPDATE login_links SET used_at = ? WHERE secret_hash = ? AND used_at IS NULL');
  const dropOpenLinks = db.prepare<[string]>('DELETE FROM login_links WHERE user_id = ? AND used_at IS NULL');

  const insertOidc = db.prepare<[Buffer, string, string, string, string]>(
    'INSERT INTO oidc_logins (state_hash, code_verifier, nonce, return_to, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const takeOidc = db.prepare<[Buffer], { code_verifier: string; nonce: string; return_to: string; created_at: string }>(
    'DELETE FROM oidc_logins WHERE state_hash = ? RETURNING code_verifier, nonce, return_to, created_at',
  );
  const forgetOldOidc = db.prepare<[string]>('DELETE FROM oidc_logins WHERE created_at < ?');
  // Rowids grow with each insert: all but the newest `keep` rows are below max(rowid) - keep (an index lookup, no scan).
  const keepNewestOidc = db.prepare<[number]>('DELETE FROM oidc_logins WHERE rowid <= (SELECT max(rowid) FROM oidc_logins) - ?');

  return {
    create(session: NewWebSession): WebSessionRow {
      insert.run(session);
      return byId.get(session.id)!;
    },
    /** The session whose cookie hashes to `secretHash`, ended or not (the limits are the caller's to check). */
    findBySecret: (secretHash: Buffer): WebSessionHolder | undefined => bySecret.get(secretHash),
    get: (id: string): WebSessionRow | undefined => byId.get(id),
    markSeen: (id: string, at: string): void => void touch.run(at, id),
    /** Ends a session; false when it had already ended. */
    end: (id: string, at: string, reason: EndReason): boolean => end.run(at, reason, id).changes > 0,
    listLive(filter: { userId: string | null; now: string; idleSince: string }, after: number | null, limit: number): WebSessionRow[] {
      return livePage.all({ ...filter, after: after ?? 0, limit });
    },
    /** Every session of the user not yet ended (to end them all when they are offboarded). */
    openOfUser: (userId: string): WebSessionRow[] => liveOfUser.all(userId),

    createLink: (secretHash: Buffer, userId: string, at: string, expiresAt: string): void => void insertLink.run(secretHash, userId, at, expiresAt),
    findLink: (secretHash: Buffer) => linkByHash.get(secretHash),
    /** Forgets every link (sign-in or invitation) of the user not yet used; how many there were. */
    dropOpenLinks: (userId: string): number => dropOpenLinks.run(userId).changes,
    /** Marks a link used; false when it already was (a replay, or a race lost). */
    useLink: (secretHash: Buffer, at: string): boolean => useLink.run(at, secretHash).changes > 0,

    /** Keeps a sign-in in flight; forgets those started before `forgetBefore`, and all but the newest `keep`. */
    saveOidcLogin(stateHash: Buffer, login: { codeVerifier: string; nonce: string; returnTo: string }, at: string, forgetBefore: string, keep: number): void {
      forgetOldOidc.run(forgetBefore);
      insertOidc.run(stateHash, login.codeVerifier, login.nonce, login.returnTo, at);
      keepNewestOidc.run(keep);
    },
    /** The OpenID sign-in started with this state, removed as it is read (a state works once). */
    takeOidcLogin: (stateHash: Buffer) => takeOidc.get(stateHash),
  };
}
