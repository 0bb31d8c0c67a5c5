// The sessions area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { Session } from './responses.ts';
import type { SessionRow } from './store.ts';

/** A session as the API answers it (the Session response schema). */
export type ApiSession = Session;

export const toApiSession = (row: SessionRow): ApiSession => ({
  connection_id: row.connection_id,
  user_id: row.user_id,
  resource_id: row.resource_id,
  access_level: { access_level_name: row.access_level_name, access_level_remote_id: row.access_level_remote_id },
  expiration_date: row.expiration_date,
});
