// Users' direct access to resources (the resource_users edges): the only SQL for them.
// An edge whose expiration_date has passed is dead: every read here leaves it out.
import type { Db } from '../../db/open.ts';

/** An edge with what the API shows beside it: the user's name and email, the resource's name and description. */
export interface ResourceUserRow {
  seq: number;
  resource_id: string;
  user_id: string;
  access_level_remote_id: string;
  access_level_name: string;
  expiration_date: string | null;
  full_name: string;
  email: string;
  resource_name: string;
  resource_description: string;
}

export interface ApiAccessLevel {
  access_level_name: string;
  access_level_remote_id: string;
}

/** The reference's ResourceUser: one user's direct access at one level. */
export interface ApiResourceUser {
  resource_id: string;
  user_id: string;
  access_level: ApiAccessLevel;
  full_name: string;
  email: string;
  expiration_date: string | null;
}

/** The reference's ResourceAccessUser: the list item of GET /resources/{id}/users. */
export interface ApiResourceAccessUser extends ApiResourceUser {
  resource_name: string;
  description: string;
  has_direct_access: boolean;
  num_access_paths: number;
}

export const toApiResourceUser = (row: ResourceUserRow): ApiResourceUser => ({
  resource_id: row.resource_id,
  user_id: row.user_id,
  access_level: { access_level_name: row.access_level_name, access_level_remote_id: row.access_level_remote_id },
  full_name: row.full_name,
  email: row.email,
  expiration_date: row.expiration_date,
});

// Only direct grants exist (the catalogue has no group membership), so each edge is one access path.
export const toApiResourceAccessUser = (row: ResourceUserRow): ApiResourceAccessUser => ({
  ...toApiResourceUser(row),
  resource_name: row.resource_name,
  description: row.resource_description,
  has_direct_access: true,
  num_access_paths: 1,
});

/** Which edge: the resource, the user and the access level's remote id ('' for the default level). */
export interface EdgeKey {
  resourceId: string;
  userId: string;
  level: string;
}

export interface EdgeGrant extends EdgeKey {
  levelName: string;
  /** ISO time, or null for no expiry. */
  expiresAt: string | null;
}

export function createResourceAccessStore(db: Db) {
  const LIVE = '(ru.expiration_date IS NULL OR ru.expiration_date > @now)';
  const SELECT = `SELECT ru.seq, ru.resource_id, ru.user_id, ru.access_level_remote_id, ru.access_level_name,
                         ru.expiration_date, u.full_name, u.email, r.name AS resource_name, r.description AS resource_description
                  FROM resource_users ru
                  JOIN users u ON u.id = ru.user_id
                  JOIN resources r ON r.id = ru.resource_id`;

  const liveOne = db.prepare<EdgeKey & { now: string }, ResourceUserRow>(
    `${SELECT} WHERE ru.resource_id = @resourceId AND ru.user_id = @userId AND ru.access_level_remote_id = @level AND ${LIVE}`,
  );
  const liveOfUser = db.prepare<{ resourceId: string; userId: string; now: string }, ResourceUserRow>(
    `${SELECT} WHERE ru.resource_id = @resourceId AND ru.user_id = @userId AND ${LIVE} ORDER BY ru.seq`,
  );
  const livePage = db.prepare<{ resourceId: string; now: string; after: number; limit: number }, ResourceUserRow>(
    `${SELECT} WHERE ru.resource_id = @resourceId AND ${LIVE} AND ru.seq > @after ORDER BY ru.seq LIMIT @limit`,
  );
  // A dead (expired) row with the same key is replaced: granting again starts a fresh edge.
  const upsert = db.prepare<EdgeGrant & { at: string }>(
    `INSERT INTO resource_users (resource_id, user_id, access_level_remote_id, access_level_name, expiration_date, created_at, updated_at)
     VALUES (@resourceId, @userId, @level, @levelName, @expiresAt, @at, @at)
     ON CONFLICT (resource_id, user_id, access_level_remote_id) DO UPDATE SET
       access_level_name = excluded.access_level_name, expiration_date = excluded.expiration_date,
       created_at = excluded.created_at, updated_at = excluded.updated_at`,
  );
  const setExpiry = db.prepare<EdgeKey & { expiresAt: string | null; at: string }>(
    `UPDATE resource_users SET expiration_date = @expiresAt, updated_at = @at
     WHERE resource_id = @resourceId AND user_id = @userId AND access_level_remote_id = @level`,
  );
  const remove = db.prepare<EdgeKey>(
    'DELETE FROM resource_users WHERE resource_id = @resourceId AND user_id = @userId AND access_level_remote_id = @level',
  );

  return {
    /** The edge if the user holds it at `now` (unexpired), else undefined. */
    held(key: EdgeKey, now: Date): ResourceUserRow | undefined {
      return liveOne.get({ ...key, now: now.toISOString() });
    },
    /** Every level the user holds on the resource at `now`. */
    heldByUser(resourceId: string, userId: string, now: Date): ResourceUserRow[] {
      return liveOfUser.all({ resourceId, userId, now: now.toISOString() });
    },
    /** One page of the resource's unexpired edges, in grant order. */
    list(resourceId: string, now: Date, after: number | null, limit: number): ResourceUserRow[] {
      return livePage.all({ resourceId, now: now.toISOString(), after: after ?? 0, limit });
    },
    /** Writes the edge (replacing a dead one with the same key); the caller has checked none is held. */
    grant(edge: EdgeGrant, at: Date): void {
      upsert.run({ ...edge, at: at.toISOString() });
    },
    setExpiry(key: EdgeKey, expiresAt: string | null, at: Date): void {
      setExpiry.run({ ...key, expiresAt, at: at.toISOString() });
    },
    /** Deletes the edge's row, held or dead. */
    revoke(key: EdgeKey): void {
      remove.run(key);
    },
  };
}

export type ResourceAccessStore = ReturnType<typeof createResourceAccessStore>;
