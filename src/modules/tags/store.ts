// Placeholder: the tags area's SQL lives here.
import type { Db } from '../../db/open.ts';

export function createTagStore(_db: Db) {
  return {};
}
