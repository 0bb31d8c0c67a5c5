// Access requests over HTTP: create (or dry-run), list (paged, and the deprecated relay list), get,
// approve, deny, cancel, and comments.
import type { AppContext } from '../../context.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { ok, type ApiRouter } from '../../http/router.ts';
import { cutPage } from '../../http/paging.ts';
import type { RelayRequestsInput } from './schemas.ts';
import { approveRequest, cancelRequest, commentOnRequest, denyRequest, readableRequest } from './decide.ts';
import { createRequest, dryRunRequest } from './service.ts';
import type { RequestFilter, RequestRow } from './store.ts';
import { requestReader, toApiComment, toApiRequest } from './mappers.ts';
import { listRequests, readableBy, requestCounts } from './list.ts';
import { INLINE_PAGE_SIZE } from '../../reads/budget.ts';
import type { requestRoutes } from './routes.ts';

/** What the relay list answers when neither first nor last is given. */
const RELAY_DEFAULT = 20;

export function registerRequestRoutes(router: ApiRouter<typeof requestRoutes>, ctx: AppContext): void {
  const { requests } = ctx.stores;
  const load = (id: string): RequestRow => {
    const row = requests.get(id);
    if (!row) throw notFound('request', id, 'id');
    return row;
  };
  const answer = (id: string) => ok<{ request: ReturnType<typeof toApiRequest> }>({ request: toApiRequest(ctx, load(id), ctx.clock.now()) });

  router.on('GET /v1/requests', async (req) => {
    const query = req.query();
    const caller = { userId: req.caller.userId, role: req.caller.role };
    // A big page is built on a read worker (docs/read-workers.md); a small one costs less than the trip.
    if (query.page_size <= INLINE_PAGE_SIZE) return ok(listRequests(ctx, query, caller, ctx.clock.now()));
    return ok(await ctx.reads.answer('requests.list', { query, caller }, req.caller.userId, ctx.clock.now(), () => req.http.socket.destroyed));
  });

  router.on('GET /v1/requests/counts', (req) => ok(requestCounts(ctx, req.caller, ctx.clock.now())));

  router.on('POST /v1/requests', async (req) => {
    const query = req.query();
    const body = await req.body();
    return ok(query.dry_run === true ? dryRunRequest(ctx, req.caller, body) : createRequest(ctx, req.caller, body));
  });

  router.on('GET /v1/requests/relay', (req) => ok(relay(ctx, req.query(), readableBy(req.caller, ctx.clock.now()))));

  router.on('GET /v1/requests/{id}', (req) => ok(toApiRequest(ctx, readableRequest(ctx, req.caller, req.uuidParam('id'), ctx.clock.now()), ctx.clock.now())));

  router.on('POST /v1/requests/{id}/approve', async (req) => {
    const id = req.uuidParam('id');
    const body = await req.body();
    approveRequest(ctx, req.caller, id, body.level, body.comment, {}, body.duration_minutes ?? null);
    return answer(id);
  });
  router.on('POST /v1/requests/{id}/deny', async (req) => {
    const id = req.uuidParam('id');
    const body = await req.body();
    denyRequest(ctx, req.caller, id, body.comment, body.level);
    return answer(id);
  });
  router.on('POST /v1/requests/{id}/cancel', (req) => {
    const id = req.uuidParam('id');
    cancelRequest(ctx, req.caller, id);
    return answer(id);
  });

  router.on('GET /v1/requests/{id}/comments', (req) => ok({ comments: requests.comments(readableRequest(ctx, req.caller, req.uuidParam('id'), ctx.clock.now()).id).map(toApiComment) }));
  router.on('POST /v1/requests/{id}/comments', async (req) => {
    const id = req.uuidParam('id');
    const body = await req.body();
    commentOnRequest(ctx, req.caller, id, body.comment);
    return answer(id);
  });
}

/** The deprecated relay list: newest first; first/after pages forward, last/before backward. */
function relay(ctx: AppContext, query: RelayRequestsInput, readable: RequestFilter) {
  const { requests } = ctx.stores;
  if (query.first !== undefined && query.last !== undefined) throw invalidField('last', 'give first (with after) or last (with before), not both');
  if (query.after !== undefined && query.before !== undefined) throw invalidField('before', 'give after or before, not both');
  const filter: RequestFilter = { status: query.status, reviewerId: query.to, requesterId: query.from, ...readable };
  const seqOf = (cursor: string, field: string) => {
    const key = ctx.pager.key('requests-relay', cursor, field);
    if (typeof key !== 'number') throw invalidField(field, 'is not a cursor this list issued; start again without one');
    return key;
  };
  const read = requestReader(ctx, ctx.clock.now());
  const edge = (row: RequestRow) => ({ cursor: ctx.pager.cursor('requests-relay', row.seq), node: read(row) });
  let edges: ReturnType<typeof edge>[];
  let hasNextPage: boolean;
  let hasPreviousPage: boolean;
  if (query.last !== undefined || query.before !== undefined) {
    const n = query.last ?? RELAY_DEFAULT;
    // Oldest first from the `before` cursor: the nearest rows are kept when the page is cut.
    const page = cutPage(requests.listNewer(filter, query.before === undefined ? 0 : seqOf(query.before, 'before'), n + 1), n, ctx.pager.maxBytes, edge);
    hasPreviousPage = page.more;
    hasNextPage = query.before !== undefined;
    edges = page.items.reverse();
  } else {
    const n = query.first ?? RELAY_DEFAULT;
    // Cut like every other list's pages (src/http/paging.ts): at most n edges and the page byte bound, one edge at least.
    const page = cutPage(requests.list(filter, query.after === undefined ? null : seqOf(query.after, 'after'), n + 1), n, ctx.pager.maxBytes, edge);
    hasNextPage = page.more;
    hasPreviousPage = query.after !== undefined;
    edges = page.items;
  }
  return {
    edges,
    pageInfo: { hasNextPage, hasPreviousPage, startCursor: edges[0]?.cursor ?? '', endCursor: edges.at(-1)?.cursor ?? '' },
    totalCount: requests.count(filter),
  };
}
