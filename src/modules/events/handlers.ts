// GET /events and /events/{event_id}: reading the audit trail.
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { ok, type ApiRouter } from '../../http/router.ts';
import type { EventFilter, EventText } from './store.ts';
import type { ApiEvent } from './mappers.ts';
import type { eventRoutes } from './routes.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A token is named in filters as `label:preview` (as events show it) or by its label alone. */
function tokenFilter(raw: string): Pick<EventFilter, 'tokenName' | 'tokenPreview'> {
  const match = /^(.*):(\*+[^:*]+)$/.exec(raw);
  return match ? { tokenName: match[1], tokenPreview: match[2] } : { tokenName: raw };
}

export function registerEventRoutes(router: ApiRouter<typeof eventRoutes>, ctx: AppContext): void {
  const { events } = ctx.stores;

  router.on('GET /v1/events', (req) => {
    const query = req.query();
    const filter: EventFilter = {
      actorId: query.actor_filter?.toLowerCase(),
      objectId: query.object_filter?.toLowerCase(),
      eventType: query.event_type_filter,
      ...(query.api_token_filter !== undefined && tokenFilter(query.api_token_filter)),
    };
    if (query.start_date_filter) filter.startAt = query.start_date_filter.at.toISOString();
    if (query.end_date_filter) {
      // A bare end date includes that whole day; a date-time is inclusive to the millisecond.
      const end = query.end_date_filter;
      if (end.wholeDay) filter.endBefore = new Date(end.at.getTime() + DAY_MS).toISOString();
      else filter.endAt = end.at.toISOString();
    }
    const before = ctx.pager.afterSeq('events', query);
    const rows = events.list(filter, before, query.page_size + 1);
    return ok(ctx.pager.pageOfBytes<EventText, ApiEvent>('events', query, rows, (row) => row.seq, (row) => row.bytes));
  });

  router.on('GET /v1/events/{event_id}', (req) => {
    const id = req.uuidParam('event_id');
    const event = events.get(id);
    if (!event) throw notFound('event', id);
    return ok(event);
  });
}
