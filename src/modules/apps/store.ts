// Placeholder: the apps area's SQL lives here.
import type { Db } from '../../db/open.ts';

export function createAppStore(_db: Db) {
  return {};
}
