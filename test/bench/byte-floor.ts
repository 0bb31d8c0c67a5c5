// The benchmark's byte floor (issue 42): a bare node:http server answering the very JSON bytes Gatehouse
// answered, each read from a SQLite table by primary key — the least any server on this runtime and this
// database library can do for a read. http.ts fills the table (fillByteFloor) by asking Gatehouse once
// for every path its read scenarios ask, as the admin and as the member, then measures both.
// Run by test/bench/http.ts: <node> --import tsx test/bench/byte-floor.ts <answers.db> <port> <member-token>
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';

const SCHEMA = 'CREATE TABLE IF NOT EXISTS answers (caller TEXT NOT NULL, path TEXT NOT NULL, body BLOB NOT NULL, PRIMARY KEY (caller, path)) WITHOUT ROWID';

/** Asks `url` for each path as each caller (8 at a time) and keeps the 200 answers' bytes in `file`. */
export async function fillByteFloor(file: string, url: string, asked: { caller: 'admin' | 'member'; token: string; paths: string[] }[]): Promise<number> {
  const db = new Database(file);
  db.exec(SCHEMA);
  const insert = db.prepare<[string, string, Buffer]>('INSERT OR REPLACE INTO answers (caller, path, body) VALUES (?, ?, ?)');
  let kept = 0;
  for (const { caller, token, paths } of asked) {
    const todo = [...new Set(paths)];
    await Promise.all(Array.from({ length: 8 }, async () => {
      for (let path = todo.pop(); path !== undefined; path = todo.pop()) {
        const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
        const body = Buffer.from(await res.arrayBuffer());
        if (res.status === 200) {
          insert.run(caller, path, body);
          kept += 1;
        }
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
  const memberAuthorization = `Bearer ${memberToken}`;
  createServer((req, res) => {
    const body = answer.get(req.headers.authorization === memberAuthorization ? 'member' : 'admin', req.url!);
    if (body === undefined) {
      res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': 22 });
      res.end('{"code":"not_found"}\n\n');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  }).listen(Number(port), '127.0.0.1');
}
