// The apps area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { App } from './responses.ts';

export interface AppRow {
  seq: number;
  id: string;
  name: string;
  description: string;
  app_type: App['app_type'];
  admin_owner_id: string;
  created_at: string;
  updated_at: string;
}

/** An app as the API answers it (the App response schema). */
export type ApiApp = App;

export const toApiApp = (row: AppRow): ApiApp => ({
  app_id: row.id,
  name: row.name,
  description: row.description,
  admin_owner_id: row.admin_owner_id,
  app_type: row.app_type,
});
