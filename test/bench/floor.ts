// The benchmark's floor: a bare node:http server answering the bench's lookups on the same database
// file with the same stores' prepared statements (and, for writes, the same services in one transaction
// each) — no router, validation, authentication, guard or logging. Gatehouse/floor is the honest measure
// of what the service adds on whatever machine runs the bench. Same paths as the API, so the load
// generator sends identical requests to both.
// Run by test/bench/http.ts: <node> --import tsx --import ./src/dev/register-sql.mjs test/bench/floor.ts <db> <port> <member-token>
import { createServer } from 'node:http';
import { JsonText } from '../../src/http/json-text.ts';
import { toApiUser } from '../../src/modules/users/mappers.ts';
import { loadConfig } from '../../src/config.ts';
import { AREAS } from '../../src/app.ts';
import { createContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/open.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { edgeExpiry } from '../../src/modules/access/edges.ts';
import { createLogger } from '../../src/lib/log.ts';
import { holdersPage, holdingsOfUserPage } from '../../src/modules/access/reads.ts';
import { putEdge } from '../../src/modules/access/service.ts';
import { approveRequest } from '../../src/modules/requests/decide.ts';
import { createRequest } from '../../src/modules/requests/service.ts';
import { toApiRequest } from '../../src/modules/requests/mappers.ts';
import { toApiResource } from '../../src/modules/resources/mappers.ts';
import type { Caller } from '../../src/http/types.ts';

const [file, port, memberToken] = process.argv.slice(2) as [string, string, string];
// The service's own settings (WAL, synchronous=FULL, …).
const db = openDatabase(file, { mustExist: true });
const ctx = createContext({ db, clock: systemClock, config: loadConfig({ GATEHOUSE_LOG_LEVEL: 'silent' }, { db: file }), log: createLogger('silent') }, AREAS);
const { resources, events, users, visibility } = ctx.stores;

const callerOf = (email: string, role: Caller['role']): Caller => {
  const user = users.getByEmail(email)!;
  return { userId: user.user_id, name: user.full_name, email: user.email, tokenId: null, tokenLabel: 'floor', tokenPreview: '****', accessLevel: 'FULL_ACCESS', role, ip: '127.0.0.1' };
};
const admin = callerOf('admin@gatehouse.local', 'ADMIN');
const member = callerOf('bench0@example.com', 'MEMBER');

const RESOURCE = /^\/v1\/resources\/([0-9a-f-]{36})$/;
const USER_GROUPS = /^\/v1\/groups\/users\/([0-9a-f-]{36})$/;
const GROUP_USERS = /^\/v1\/groups\/([0-9a-f-]{36})\/users$/;
const GROUP_USER = /^\/v1\/groups\/([0-9a-f-]{36})\/users\/([0-9a-f-]{36})$/;
const APPROVE = /^\/v1\/requests\/([0-9a-f-]{36})\/approve$/;

function answer(method: string, path: string, query: URLSearchParams, caller: Caller, body: unknown): unknown {
  let m: RegExpExecArray | null;
  if (method === 'GET' && (m = RESOURCE.exec(path))) {
    if (caller.role !== 'ADMIN' && !visibility.sees('resource', m[1]!, { userId: caller.userId, now: ctx.clock.now() })) return undefined;
    return resources.get(m[1]!);
  }
  if (method === 'GET' && path === '/v1/resources') {
    const pageQuery = { page_size: Number(query.get('page_size') ?? 200), cursor: query.get('cursor') ?? undefined };
    const rows = resources.list({}, ctx.pager.afterSeq('resources', pageQuery), pageQuery.page_size + 1);
    return ctx.pager.page('resources', pageQuery, rows, (row) => row.seq, toApiResource);
  }
  if (method === 'GET' && path === '/v1/users') {
    const pageQuery = { page_size: Number(query.get('page_size') ?? 200), cursor: query.get('cursor') ?? undefined };
    return ctx.pager.page('users', pageQuery, users.list({}, ctx.pager.afterSeq('users', pageQuery), pageQuery.page_size + 1), (row) => row.seq, toApiUser);
  }
  if (method === 'GET' && (m = GROUP_USERS.exec(path))) return holdersPage(ctx, 'group', m[1]!, { page_size: 200 });
  if (method === 'GET' && (m = USER_GROUPS.exec(path))) return holdingsOfUserPage(ctx, 'group', m[1]!, { page_size: 200 }, caller);
  if (method === 'GET' && path === '/v1/events') {
    const pageQuery = { page_size: 200, cursor: undefined };
    return ctx.pager.pageOfBytes('events', pageQuery, events.list({ objectId: query.get('object_filter')! }, null, 201), (row) => row.seq, (row) => row.bytes);
  }
  if (method === 'PUT' && (m = GROUP_USER.exec(path))) {
    return putEdge(ctx, caller, 'group_user', m[2]!, m[1]!, undefined, edgeExpiry(ctx.clock.now(), (body as { duration_minutes: number }).duration_minutes));
  }
  // The defaults the API's schema would have filled in (the floor validates nothing).
  if (method === 'POST' && path === '/v1/requests') return createRequest(ctx, caller, { custom_metadata: [], ...(body as object) } as unknown as Parameters<typeof createRequest>[2]);
  if (method === 'POST' && (m = APPROVE.exec(path))) {
    approveRequest(ctx, caller, m[1]!, 'ADMIN', undefined);
    return { request: toApiRequest(ctx, ctx.stores.requests.get(m[1]!)!, ctx.clock.now()) };
  }
  return undefined;
}

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const url = new URL(req.url!, 'http://floor');
    const caller = req.headers.authorization === `Bearer ${memberToken}` ? member : admin;
    let status = 200;
    let result: unknown;
    try {
      result = answer(req.method!, url.pathname, url.searchParams, caller, chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined);
      if (result === undefined) status = 404;
    } catch (err) {
      status = 500;
      result = { message: String(err) };
    }
    // A page the service answers as its text already (Pager.pageJson) is sent as that text.
    const text = result instanceof JsonText ? result.body : JSON.stringify(result ?? { code: 'not_found' });
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  });
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('floor listening\n'));
