// Placeholder: the resource-access area's SQL lives here.
import type { Db } from '../../db/open.ts';

export function createResourceAccessStore(_db: Db) {
  return {};
}
