// Placeholder: the sessions area's SQL lives here.
import type { Db } from '../../db/open.ts';

export function createSessionStore(_db: Db) {
  return {};
}
