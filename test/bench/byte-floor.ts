// The benchmark's byte floor (issue 42): a bare node:http server answering the very JSON bytes Gatehouse
// answered, each read from a SQLite table by primary key — the least any server on this runtime and this
// database library can do for a read. http.ts fills the table (fillByteFloor) by asking Gatehouse once
// for every path its read scenarios ask, as the admin and as the member, then measures both.
// A page (an answer with `results`: 200 resources or users, a group's members, a user's groups) is kept as
// its rows, each one's JSON bytes by (caller, path, position), and served the way a page of stored rows
// would be: one range read of the rows by primary key, joined between the page's own head and tail.
// Run by test/bench/http.ts: <node> --import tsx test/bench/byte-floor.ts <answers.db> <port> <member-token>
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS answers (caller TEXT NOT NULL, path TEXT NOT NULL, body BLOB NOT NULL, PRIMARY KEY (caller, path)) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS pages (caller TEXT NOT NULL, path TEXT NOT NULL, head BLOB NOT NULL, tail BLOB NOT NULL, PRIMARY KEY (caller, path)) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS page_rows (caller TEXT NOT NULL, path TEXT NOT NULL, position INTEGER NOT NULL, body BLOB NOT NULL, PRIMARY KEY (caller, path, position)) WITHOUT ROWID;`;

/**
 * GET with the token, tried again (up to three times) when the connection is cut: a keep-alive socket the
 * server closed as idle at the moment fetch reused it (keepAliveTimeout) says nothing about the answer.
 */
async function fetchAgain(url: string, token: string): Promise<{ res: Response; body: Buffer }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      return { res, body: Buffer.from(await res.arrayBuffer()) };
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
}

/** Asks `url` for each path as each caller (8 at a time) and keeps the 200 answers' bytes in `file`. */
export async function fillByteFloor(file: string, url: string, asked: { caller: 'admin' | 'member'; token: string; paths: string[] }[]): Promise<number> {
  const db = new Database(file);
  // A scratch file: no fsync per row (a page is 200 of them).
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.exec(SCHEMA);
  const insert = db.prepare<[string, string, Buffer]>('INSERT OR REPLACE INTO answers (caller, path, body) VALUES (?, ?, ?)');
  const insertPage = db.prepare<[string, string, Buffer, Buffer]>('INSERT OR REPLACE INTO pages (caller, path, head, tail) VALUES (?, ?, ?, ?)');
  const insertRow = db.prepare<[string, string, number, Buffer]>('INSERT OR REPLACE INTO page_rows (caller, path, position, body) VALUES (?, ?, ?, ?)');
  let kept = 0;
  for (const { caller, token, paths } of asked) {
    const todo = [...new Set(paths)];
    await Promise.all(Array.from({ length: 8 }, async () => {
      for (let path = todo.pop(); path !== undefined; path = todo.pop()) {
        const { res, body } = await fetchAgain(`${url}${path}`, token);
        if (res.status !== 200) continue;
        const answer = JSON.parse(body.toString('utf8')) as { results?: unknown[] };
        if (Array.isArray(answer.results)) {
          // {"results":[ … ],"next":…}: the rows' bytes apart, the rest around them.
          const { results, ...rest } = answer;
          const tail = Object.keys(rest).length === 0 ? ']}' : `],${JSON.stringify(rest).slice(1)}`;
          db.transaction(() => {
            insertPage.run(caller, path, Buffer.from('{"results":['), Buffer.from(tail));
            results.forEach((row, position) => insertRow.run(caller, path, position, Buffer.from(JSON.stringify(row))));
          })();
        } else {
          insert.run(caller, path, body);
        }
        kept += 1;
      }
    }));
  }
  db.close();
  return kept;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, port, memberToken] = process.argv.slice(2) as [string, string, string];
  const db = new Database(file, { readonly: true });
  const answer = db.prepare<[string, string], Buffer>('SELECT body FROM answers WHERE caller = ? AND path = ?').pluck();
  const page = db.prepare<[string, string], { head: Buffer; tail: Buffer }>('SELECT head, tail FROM pages WHERE caller = ? AND path = ?');
  const rows = db.prepare<[string, string], Buffer>('SELECT body FROM page_rows WHERE caller = ? AND path = ? ORDER BY position').pluck();
  const comma = Buffer.from(',');
  const memberAuthorization = `Bearer ${memberToken}`;
  /** A page's bytes: its head, its rows read by primary key and joined by commas, its tail. */
  const pageBytes = (caller: string, path: string): Buffer | undefined => {
    const kept = page.get(caller, path);
    if (kept === undefined) return undefined;
    const parts: Buffer[] = [kept.head];
    for (const row of rows.iterate(caller, path)) {
      if (parts.length > 1) parts.push(comma);
      parts.push(row);
    }
    parts.push(kept.tail);
    return Buffer.concat(parts);
  };
  createServer((req, res) => {
    const caller = req.headers.authorization === memberAuthorization ? 'member' : 'admin';
    const body = answer.get(caller, req.url!) ?? pageBytes(caller, req.url!);
    if (body === undefined) {
      res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': 22 });
      res.end('{"code":"not_found"}\n\n');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  }).listen(Number(port), '127.0.0.1');
}
