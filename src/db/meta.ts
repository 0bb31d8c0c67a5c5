// Settings the database keeps about itself (the key that signs paging cursors, the address `serve` listens
// at, whether it is `serve --demo`'s example organisation).
import { randomBytes } from 'node:crypto';
import type { Db } from './open.ts';

/** The cursor-signing secret, made on first use and kept, so cursors survive a restart. */
export function cursorSecret(db: Db): string {
  db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('cursor_secret', ?)").run(randomBytes(32).toString('base64url'));
  return (db.prepare("SELECT value FROM meta WHERE key = 'cursor_secret'").get() as { value: string }).value;
}

/** Records where the running service answers (`http://127.0.0.1:8080`), so `login-link` run beside it makes links to it. */
export function recordServiceAddress(db: Db, base: string): void {
  db.prepare("INSERT INTO meta (key, value) VALUES ('service_address', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(base);
}

const readAddress = new WeakMap<Db, () => string | undefined>();

/** The address `serve` last recorded, if it ever ran on this file (the statement is prepared once per handle). */
export function recordedServiceAddress(db: Db): string | undefined {
  let read = readAddress.get(db);
  if (!read) {
    const statement = db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'service_address'");
    read = () => statement.get()?.value;
    readAddress.set(db, read);
  }
  return read();
}

/** Marks the file as `serve --demo`'s example organisation, seeded at `at`. */
export function markDemo(db: Db, at: Date): void {
  db.prepare("INSERT INTO meta (key, value) VALUES ('demo_seeded_at', ?)").run(at.toISOString());
}

/** When the file was seeded as a demo, if it was (then `serve --demo` starts on it again as it is). */
export function demoSeededAt(db: Db): string | undefined {
  return (db.prepare("SELECT value FROM meta WHERE key = 'demo_seeded_at'").get() as { value: string } | undefined)?.value;
}
