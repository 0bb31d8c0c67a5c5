// Settings the database keeps about itself (the key that signs paging cursors).
import { randomBytes } from 'node:crypto';
import type { Db } from './open.ts';

/** The cursor-signing secret, made on first use and kept, so cursors survive a restart. */
export function cursorSecret(db: Db): string {
  db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('cursor_secret', ?)").run(randomBytes(32).toString('base64url'));
  return (db.prepare("SELECT value FROM meta WHERE key = 'cursor_secret'").get() as { value: string }).value;
}
