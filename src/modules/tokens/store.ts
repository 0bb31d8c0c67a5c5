// API tokens: the only SQL that touches them.
import type { Db } from '../../db/open.ts';
import { newId } from '../../lib/ids.ts';
import { hashSecret, hashSecretKey, lookupOf, previewOf, secretMatches } from './secret.ts';
import { checkExternalCommits, onExternalCommit } from '../../db/kept.ts';
import type { OrganizationRole } from '../users/roles.ts';
import { toApiToken, type ApiToken, type TokenRow, type AccessLevel, type TokenScope } from './mappers.ts';

/** A token found by its secret, with what authentication needs of its user. */
export interface TokenHolder {
  tokenId: string;
  label: string;
  preview: string;
  accessLevel: AccessLevel;
  userId: string;
  name: string;
  email: string;
  role: OrganizationRole;
  /** The user's hr_idp_status: an offboarded user's tokens are refused. */
  userStatus: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  scope: TokenScope;
}

export interface NewToken {
  secret: string;
  label: string;
  accessLevel: AccessLevel;
  userId: string;
  creatorUserId: string;
  /** API unless given. */
  scope?: TokenScope;
}

/** How many tokens' holders are kept in memory; past it the cache starts over (a deployment has a few hundred). */
const CACHED_HOLDERS_MAX = 10_000;

/**
 * Calls `forget` whenever this connection changes a token or a user, whatever code path writes it:
 * TEMP triggers (this connection only; nothing is stored in the file) call a function registered on
 * the connection, inside the very statement that writes. Writes by other connections (the CLI's
 * `token revoke`, a second process) are seen through PRAGMA data_version by the caller.
 */
const FORGETTERS = new WeakMap<Db, Set<() => void>>();
function onTokenHoldersChanged(db: Db, forget: () => void): void {
  let forgetters = FORGETTERS.get(db);
  if (!forgetters) {
    const registered = new Set<() => void>();
    forgetters = registered;
    FORGETTERS.set(db, registered);
    db.function('gatehouse_token_holders_changed', () => {
      for (const each of registered) each();
      return null;
    });
    // last_used_at is left out: touching it changes nothing authentication decides (markUsed updates the cache).
    const tokenColumns = 'lookup, secret_hash, preview, label, access_level, user_id, creator_user_id, expires_at';
    db.exec(`
      CREATE TEMP TRIGGER IF NOT EXISTS token_cache_token_updated AFTER UPDATE OF ${tokenColumns} ON main.api_tokens
        BEGIN SELECT gatehouse_token_holders_changed(); END;
      CREATE TEMP TRIGGER IF NOT EXISTS token_cache_token_deleted AFTER DELETE ON main.api_tokens
        BEGIN SELECT gatehouse_token_holders_changed(); END;
      CREATE TEMP TRIGGER IF NOT EXISTS token_cache_user_updated AFTER UPDATE ON main.users
        BEGIN SELECT gatehouse_token_holders_changed(); END;
      CREATE TEMP TRIGGER IF NOT EXISTS token_cache_user_deleted AFTER DELETE ON main.users
        BEGIN SELECT gatehouse_token_holders_changed(); END;`);
  }
  forgetters.add(forget);
}

export function createTokenStore(db: Db) {
  const insert = db.prepare<[string, string, Buffer, string, string, AccessLevel, string, string, string, TokenScope]>(
    `INSERT INTO api_tokens (id, lookup, secret_hash, preview, label, access_level, user_id, creator_user_id, created_at, scope)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const candidates = db.prepare<[string], TokenRow & { full_name: string; email: string; organization_role: OrganizationRole; hr_idp_status: string }>(
    `SELECT t.*, u.full_name, u.email, u.organization_role, u.hr_idp_status FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.lookup = ?`,
  );
  const byId = db.prepare<[string], TokenRow>('SELECT * FROM api_tokens WHERE id = ?');
  const byLabel = db.prepare<[string], TokenRow>('SELECT * FROM api_tokens WHERE label = ? ORDER BY seq');
  const touch = db.prepare<[string, string]>('UPDATE api_tokens SET last_used_at = ? WHERE id = ?');
  const remove = db.prepare<[string]>('DELETE FROM api_tokens WHERE id = ?');
  const removeOfUser = db.prepare<[string], TokenRow>('DELETE FROM api_tokens WHERE user_id = ? RETURNING *');
  const page = db.prepare<{ ids: string | null; userId: string | null; after: number; limit: number }, TokenRow>(
    `SELECT * FROM api_tokens
     WHERE (@ids IS NULL OR id IN (SELECT value FROM json_each(@ids)))
       AND (@userId IS NULL OR user_id = @userId)
       AND seq > @after
     ORDER BY seq LIMIT @limit`,
  );

  // Tokens found by their secret, keyed by the secret's SHA-256 (never the secret itself). An entry is
  // dropped by any write to a token or a user on this connection (the triggers above), by a rolled-back
  // batch (forgetCached), and whenever another connection committed anything (data_version moved): a
  // revoked token or an offboarded user is never served from here. Expiry is checked by the caller on
  // every request. Only tokens that exist are kept: a wrong guess costs the lookup every time.
  const cached = new Map<string, TokenHolder>();
  const forget = () => cached.clear();
  if (!db.readonly) {
    onTokenHoldersChanged(db, forget);
    // The look at PRAGMA data_version is shared with the answers kept (db/kept.ts): once per request.
    onExternalCommit(db, forget);
  }

  function lookUp(secret: string): TokenHolder | undefined {
    for (const row of candidates.all(lookupOf(secret))) {
      if (secretMatches(secret, row.secret_hash)) {
        return {
          tokenId: row.id,
          label: row.label,
          preview: row.preview,
          accessLevel: row.access_level,
          userId: row.user_id,
          name: row.full_name,
          email: row.email,
          role: row.organization_role,
          userStatus: row.hr_idp_status,
          lastUsedAt: row.last_used_at,
          expiresAt: row.expires_at,
          scope: row.scope,
        };
      }
    }
    return undefined;
  }

  return {
    /** Stores a token by the hash of its secret; the secret itself is never written. */
    create(token: NewToken, at: Date): ApiToken {
      const id = newId();
      insert.run(id, lookupOf(token.secret), hashSecret(token.secret), previewOf(token.secret), token.label,
        token.accessLevel, token.userId, token.creatorUserId, at.toISOString(), token.scope ?? 'API');
      return toApiToken(byId.get(id)!);
    },
    /**
     * The token whose secret this is, or undefined. Served from memory when nothing that decides it can
     * have changed since it was read (see `cached` above); the caller must not modify what it gets.
     */
    findBySecret(secret: string): TokenHolder | undefined {
      if (db.readonly) return lookUp(secret);
      checkExternalCommits(db);
      const key = hashSecretKey(secret);
      const hit = cached.get(key);
      if (hit) return hit;
      const holder = lookUp(secret);
      if (holder) {
        if (cached.size >= CACHED_HOLDERS_MAX) cached.clear();
        cached.set(key, holder);
      }
      return holder;
    },
    /** Drops every cached token holder (a batch of writes was rolled back: what was read inside it may be gone). */
    forgetCached: forget,
    get(id: string): ApiToken | undefined {
      const row = byId.get(id);
      return row && toApiToken(row);
    },
    /** Every token with exactly this label (labels are not unique), oldest first; for `gatehouse token revoke --label`. */
    findByLabel(label: string): ApiToken[] {
      return byLabel.all(label).map(toApiToken);
    },
    markUsed(id: string, at: Date): void {
      const iso = at.toISOString();
      touch.run(iso, id);
      for (const holder of cached.values()) if (holder.tokenId === id) holder.lastUsedAt = iso;
    },
    /** Returns whether a token was deleted. */
    delete(id: string): boolean {
      return remove.run(id).changes > 0;
    },
    /** Deletes every token of the user; returns what was deleted (id and label, for the audit trail). */
    deleteAllOfUser(userId: string): { id: string; label: string }[] {
      return removeOfUser.all(userId).map((row) => ({ id: row.id, label: row.label }));
    },
    list(filter: { tokenIds?: string[] | undefined; userId?: string | undefined }, after: number | null, limit: number): TokenRow[] {
      const ids = filter.tokenIds === undefined ? null : JSON.stringify(filter.tokenIds);
      return page.all({ ids, userId: filter.userId ?? null, after: after ?? 0, limit });
    },
  };
}

