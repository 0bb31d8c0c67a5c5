// Placeholder: the groups area's SQL lives here.
import type { Db } from '../../db/open.ts';

export function createGroupStore(_db: Db) {
  return {};
}
