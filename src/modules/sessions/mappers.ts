// The sessions area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { Session } from './responses.ts';

export interface SessionRow {
  seq: number;
  connection_id: string;
  user_id: string;
  resource_id: string;
  access_level_remote_id: string;
  access_level_name: string;
  expiration_date: string;
  created_at: string;
  ended_at: string | null;
}

/** A session as the API answers it (the Session response schema). */
export type ApiSession = Session;

export const toApiSession = (row: SessionRow): ApiSession => ({
  connection_id: row.connection_id,
  user_id: row.user_id,
  resource_id: row.resource_id,
  access_level: { access_level_name: row.access_level_name, access_level_remote_id: row.access_level_remote_id },
  expiration_date: row.expiration_date,
});
