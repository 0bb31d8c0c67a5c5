// Placeholder: the owners area's SQL lives here.
import type { Db } from '../../db/open.ts';

export function createOwnerStore(_db: Db) {
  return {};
}
