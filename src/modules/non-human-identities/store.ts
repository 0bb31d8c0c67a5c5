// Placeholder: the non-human-identities area's SQL lives here.
import type { Db } from '../../db/open.ts';

export function createNonHumanIdentityStore(_db: Db) {
  return {};
}
