// /event-streams: webhook receivers of the audit trail (delivery itself is the background job in delivery.ts).
import type { AppContext } from '../../context.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { createEventStream, deleteEventStream, listEventStreams, testEventStream, updateEventStream } from './service.ts';
import type { eventStreamRoutes } from './routes.ts';

export function registerEventStreamRoutes(router: ApiRouter<typeof eventStreamRoutes>, ctx: AppContext): void {
  router.on('GET /v1/event-streams', () => ok({ event_streams: listEventStreams(ctx) }));

  router.on('POST /v1/event-streams', async (req) => ok(createEventStream(ctx, req.caller, await req.body())));

  router.on('PUT /v1/event-streams/{event_stream_id}', async (req) => {
    const id = req.uuidParam('event_stream_id');
    return ok(updateEventStream(ctx, req.caller, id, await req.body()));
  });

  router.on('POST /v1/event-streams/{event_stream_id}/test', async (req) => ok(await testEventStream(ctx, req.caller, req.uuidParam('event_stream_id'))));

  router.on('DELETE /v1/event-streams/{event_stream_id}', (req) => {
    deleteEventStream(ctx, req.caller, req.uuidParam('event_stream_id'));
    return done();
  });
}
