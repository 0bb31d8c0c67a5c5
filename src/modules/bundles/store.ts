// Placeholder: the bundles area's SQL lives here.
import type { Db } from '../../db/open.ts';

export function createBundleStore(_db: Db) {
  return {};
}
