// GET /v1/resources' pages kept between reads (db/kept.ts KeptPages, by view and query): a page read
// again is sent as its kept bytes, on the main thread, with no statement and no read worker.
import type { AppContext } from '../../context.ts';
import { JsonText } from '../../http/json-text.ts';
import type { Page } from '../../http/paging.ts';
import { INLINE_PAGE_SIZE } from '../../reads/budget.ts';
import { visibleSetHorizon } from '../visibility/service.ts';
import type { Viewer } from '../visibility/sql.ts';
import { listResources, type ListResourcesInput } from './list.ts';
import type { Resource } from './responses.ts';

/**
 * One page of resources `viewer` sees (null: an admin), as listResources builds it: kept, or built (on a
 * read worker past INLINE_PAGE_SIZE, as `owner`'s heavy read, dropped unrun if `gone` says its client left) and kept. An admin's page is everyone's
 * who sees everything; a member's is their own, and holds only until the first expiry among the edges
 * their visible set went through. The writes that drop pages: PAGE_SOURCES in the resources store.
 */
export async function resourcePage(ctx: AppContext, query: ListResourcesInput, viewer: Viewer | null, owner: string, gone?: () => boolean): Promise<JsonText<Page<Resource>>> {
  const pages = ctx.stores.resources.keptPages;
  const now = viewer?.now ?? ctx.clock.now();
  const view = viewer === null ? 'admin' : viewer.userId;
  const horizon = () => (viewer === null ? null : visibleSetHorizon(ctx, viewer));
  if (query.page_size <= INLINE_PAGE_SIZE) return pages.answer(view, query, now, () => ({ page: listResources(ctx, query, viewer), until: horizon() }));
  const at = now.toISOString();
  // The query as the schema gave it (its entries in the schema's order): equal queries, one key.
  const asked = JSON.stringify(query);
  const kept = pages.get(view, asked, at);
  if (kept !== undefined) return JsonText.shared(kept);
  const until = horizon();
  // Marked before the worker reads: its answer is kept only if nothing it could have missed was written meanwhile.
  const mark = pages.mark();
  const page = await ctx.reads.answer('resources.list', { query, viewer }, owner, now, gone);
  if (until !== undefined) pages.keep(view, asked, page.text, at, until, mark);
  return page;
}
