// Placeholder: the resources area's SQL lives here.
import type { Db } from '../../db/open.ts';

export function createResourceStore(_db: Db) {
  return {};
}
