// Sessions (a user's time-bounded connection to a resource): the only SQL for them.
// A session is open while ended_at is NULL and expiration_date is after now; only open ones are shown.
import type { Db } from '../../db/open.ts';
import { newId } from '../../lib/ids.ts';
import { toApiSession, type ApiSession, type SessionRow } from './mappers.ts';

export interface NewSession {
  userId: string;
  resourceId: string;
  level: string;
  levelName: string;
  expiresAt: string;
}

/** The access edge a session rides on. */
export interface SessionEdge {
  resourceId: string;
  userId: string;
  level: string;
}

export function createSessionStore(db: Db) {
  const OPEN = 'ended_at IS NULL AND expiration_date > @now';
  const insert = db.prepare<NewSession & { id: string; at: string }>(
    `INSERT INTO sessions (connection_id, user_id, resource_id, access_level_remote_id, access_level_name, expiration_date, created_at)
     VALUES (@id, @userId, @resourceId, @level, @levelName, @expiresAt, @at)`,
  );
  const byId = db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE connection_id = ?');
  const page = db.prepare<{ resourceId: string; userId: string | null; now: string; after: number; limit: number }, SessionRow>(
    `SELECT * FROM sessions
     WHERE resource_id = @resourceId AND (@userId IS NULL OR user_id = @userId) AND ${OPEN} AND seq > @after
     ORDER BY seq LIMIT @limit`,
  );
  const end = db.prepare<{ id: string; now: string }>(
    `UPDATE sessions SET ended_at = @now WHERE connection_id = @id AND ${OPEN}`,
  );
  const endOnEdge = db.prepare<SessionEdge & { now: string }, { connection_id: string }>(
    `UPDATE sessions SET ended_at = @now
     WHERE resource_id = @resourceId AND user_id = @userId AND access_level_remote_id = @level AND ${OPEN}
     RETURNING connection_id`,
  );
  const openWhere = db.prepare<{ userId: string | null; resourceId: string | null; now: string }, SessionRow>(
    `SELECT * FROM sessions
     WHERE (@userId IS NULL OR user_id = @userId) AND (@resourceId IS NULL OR resource_id = @resourceId) AND ${OPEN}
     ORDER BY seq`,
  );
  const setExpiry = db.prepare<{ id: string; exp: string }>('UPDATE sessions SET expiration_date = @exp WHERE connection_id = @id');
  const capOnEdge = db.prepare<SessionEdge & { now: string; cap: string }>(
    `UPDATE sessions SET expiration_date = @cap
     WHERE resource_id = @resourceId AND user_id = @userId AND access_level_remote_id = @level AND ${OPEN}
       AND expiration_date > @cap`,
  );

  return {
    open(session: NewSession, at: Date): ApiSession {
      const id = newId();
      insert.run({ ...session, id, at: at.toISOString() });
      return toApiSession(byId.get(id)!);
    },
    /** The session if it is open at `now`. */
    getOpen(connectionId: string, now: Date): ApiSession | undefined {
      const row = byId.get(connectionId);
      return row && row.ended_at === null && row.expiration_date > now.toISOString() ? toApiSession(row) : undefined;
    },
    exists(connectionId: string): boolean {
      return byId.get(connectionId) !== undefined;
    },
    /** The user a session (open or not) belongs to, or undefined when it never existed. */
    userOf(connectionId: string): string | undefined {
      return byId.get(connectionId)?.user_id;
    },
    /** One page of the resource's open sessions, optionally of one user, oldest first. */
    list(filter: { resourceId: string; userId?: string | undefined }, now: Date, after: number | null, limit: number): SessionRow[] {
      return page.all({ resourceId: filter.resourceId, userId: filter.userId ?? null, now: now.toISOString(), after: after ?? 0, limit });
    },
    /** Ends an open session; returns whether one was open. */
    end(connectionId: string, now: Date): boolean {
      return end.run({ id: connectionId, now: now.toISOString() }).changes > 0;
    },
    /** Ends every open session on an access edge (its access is going away); returns their connection ids. */
    endOnEdge(edge: SessionEdge, now: Date): string[] {
      return endOnEdge.all({ ...edge, now: now.toISOString() }).map((row) => row.connection_id);
    },
    /** Open sessions of a user and/or on a resource (every open session when neither is given). */
    openWhere(scope: { userId?: string | undefined; resourceId?: string | undefined }, now: Date): ApiSession[] {
      return openWhere.all({ userId: scope.userId ?? null, resourceId: scope.resourceId ?? null, now: now.toISOString() }).map(toApiSession);
    },
    /** Moves an open session's end (the access it rides on now ends sooner). */
    setExpiry(connectionId: string, expiresAt: string): void {
      setExpiry.run({ id: connectionId, exp: expiresAt });
    },
    /** Brings forward the expiry of open sessions on an edge whose access now ends at `cap`. */
    capOnEdge(edge: SessionEdge, cap: string, now: Date): void {
      capOnEdge.run({ ...edge, cap, now: now.toISOString() });
    },
  };
}

