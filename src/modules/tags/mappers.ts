// The tags area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { Tag } from './responses.ts';

export interface TagRow {
  seq: number;
  id: string;
  key: string;
  value: string;
  user_creator_id: string;
  admin_owner_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A tag as the API answers it (the Tag response schema). */
export type ApiTag = Tag;

export function toApiTag(row: TagRow): ApiTag {
  return {
    tag_id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    user_creator_id: row.user_creator_id,
    key: row.key,
    value: row.value,
    ...(row.admin_owner_id !== null && { admin_owner_id: row.admin_owner_id }),
  };
}
