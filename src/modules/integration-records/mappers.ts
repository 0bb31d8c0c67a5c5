// The integration records area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import { RECORD_KINDS, type RecordKind } from './kinds.ts';
import type { MessageChannel } from './responses.ts';

export interface RecordRow {
  seq: number;
  id: string;
  third_party_provider: string;
  remote_id: string;
  name: string | null;
  is_private?: number | null;
  created_at: string;
}

/** A record as the API answers it (a MessageChannel), keyed by its kind's own id field. */
export type ApiRecord = MessageChannel;

export function toApiRecord(kind: RecordKind, row: RecordRow): ApiRecord {
  // The id field and provider come from RECORD_KINDS, whose providers the table's CHECK holds.
  return <ApiRecord>{
    [RECORD_KINDS[kind].idField]: row.id,
    third_party_provider: row.third_party_provider,
    remote_id: row.remote_id,
    ...(row.name !== null && { name: row.name }),
    ...(row.is_private !== undefined && row.is_private !== null && { is_private: row.is_private === 1 }),
  };
}
