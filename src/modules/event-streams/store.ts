// Event streams and their credentials, and reading the events table as their outbox: the only SQL for them.
import type { Db } from '../../db/open.ts';
import type { ApiKeyLocation, AuthType } from './schemas.ts';

export interface StreamRow {
  seq: number;
  id: string;
  name: string;
  connection_type: 'WEBHOOK';
  webhook_url: string;
  enabled: number;
  auth_type: AuthType;
  position: number;
  failures: number;
  next_attempt_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  last_delivered_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CredentialRow {
  id: string;
  kind: 'API_KEY' | 'HMAC';
  slot: number;
  name: string | null;
  location: ApiKeyLocation | null;
  secret: string;
  created_at: string;
}

/** The fields PUT may change; position and retry state have their own statements. */
export interface StreamFields {
  name: string;
  webhook_url: string;
  enabled: boolean;
  auth_type: AuthType;
}

export function createEventStreamStore(db: Db) {
  const insert = db.prepare<{ id: string; name: string; url: string; auth: AuthType; position: number; at: string }>(
    `INSERT INTO event_streams (id, name, connection_type, webhook_url, enabled, auth_type, position, created_at, updated_at)
     VALUES (@id, @name, 'WEBHOOK', @url, 1, @auth, @position, @at, @at)`,
  );
  const byId = db.prepare<[string], StreamRow>('SELECT * FROM event_streams WHERE id = ?');
  const all = db.prepare<[], StreamRow>('SELECT * FROM event_streams ORDER BY seq');
  // A change of configuration clears the back-off, so a fixed URL is tried at the next tick.
  const update = db.prepare<{ id: string; name: string; url: string; enabled: number; auth: AuthType; at: string }>(
    `UPDATE event_streams SET name = @name, webhook_url = @url, enabled = @enabled, auth_type = @auth,
                              next_attempt_at = NULL, updated_at = @at
     WHERE id = @id`,
  );
  const remove = db.prepare<[string]>('DELETE FROM event_streams WHERE id = ?');
  const credentialsOf = db.prepare<[string], CredentialRow>(
    'SELECT id, kind, slot, name, location, secret, created_at FROM event_stream_credentials WHERE stream_id = ? ORDER BY kind, slot',
  );
  const clearCredentials = db.prepare<[string]>('DELETE FROM event_stream_credentials WHERE stream_id = ?');
  const insertCredential = db.prepare<CredentialRow & { stream_id: string }>(
    `INSERT INTO event_stream_credentials (id, stream_id, kind, slot, name, location, secret, created_at)
     VALUES (@id, @stream_id, @kind, @slot, @name, @location, @secret, @created_at)`,
  );
  const head = db.prepare<[], number>('SELECT coalesce(max(seq), 0) FROM events').pluck();
  const due = db.prepare<{ now: string }, StreamRow>(
    `SELECT * FROM event_streams
     WHERE enabled = 1 AND (next_attempt_at IS NULL OR next_attempt_at <= @now)
       AND position < (SELECT coalesce(max(seq), 0) FROM events)
     ORDER BY seq`,
  );
  // Only from the position the delivery started at: a stream deleted meanwhile changes nothing.
  const advance = db.prepare<{ id: string; from: number; to: number; at: string }>(
    `UPDATE event_streams SET position = @to, failures = 0, next_attempt_at = NULL, last_delivered_at = @at
     WHERE id = @id AND position = @from`,
  );
  const failure = db.prepare<{ id: string; error: string; at: string; next: string }>(
    `UPDATE event_streams SET failures = failures + 1, last_error = @error, last_error_at = @at, next_attempt_at = @next
     WHERE id = @id`,
  );

  return {
    /** Inserts an enabled stream whose delivery starts after event `position`. */
    create(id: string, fields: { name: string; webhook_url: string; auth_type: AuthType }, position: number, at: Date): void {
      insert.run({ id, name: fields.name, url: fields.webhook_url, auth: fields.auth_type, position, at: at.toISOString() });
    },
    get(id: string): StreamRow | undefined {
      return byId.get(id);
    },
    /** Every stream, oldest first (the reference's list is not paged). */
    list(): StreamRow[] {
      return all.all();
    },
    update(id: string, fields: StreamFields, at: Date): void {
      update.run({ id, name: fields.name, url: fields.webhook_url, enabled: fields.enabled ? 1 : 0, auth: fields.auth_type, at: at.toISOString() });
    },
    /** Deletes the stream and its credentials. */
    delete(id: string): void {
      remove.run(id);
    },
    credentials(id: string): CredentialRow[] {
      return credentialsOf.all(id);
    },
    replaceCredentials(id: string, credentials: CredentialRow[]): void {
      clearCredentials.run(id);
      for (const credential of credentials) insertCredential.run({ ...credential, stream_id: id });
    },

    /** The seq of the newest event, 0 when there is none. */
    headSeq(): number {
      return head.get()!;
    },
    /** Enabled streams behind the newest event whose back-off has run out at `now`. */
    due(now: Date): StreamRow[] {
      return due.all({ now: now.toISOString() });
    },
    /** Moves the position from `from` to `to` and clears the failures; false when the stream is gone or moved. */
    advance(id: string, from: number, to: number, at: Date): boolean {
      return advance.run({ id, from, to, at: at.toISOString() }).changes === 1;
    },
    /** Counts a failed attempt and sets when to try next. */
    recordFailure(id: string, error: string, at: Date, next: Date): void {
      failure.run({ id, error, at: at.toISOString(), next: next.toISOString() });
    },
  };
}

