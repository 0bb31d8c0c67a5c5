// The on-call area's handlers: one per declared route (routes.ts), each short; the use cases are service.ts and sync.ts.
import type { AppContext } from '../../context.ts';
import { ok, type ApiRouter } from '../../http/router.ts';
import { createSchedule, getSchedule, groupSchedules, onCallNow, setGroupSchedules } from './service.ts';
import { syncOnCall } from './sync.ts';
import { toApiSchedule } from './mappers.ts';
import type { onCallRoutes } from './routes.ts';

export function registerOnCallRoutes(router: ApiRouter<typeof onCallRoutes>, ctx: AppContext): void {
  router.on('GET /v1/on-call-schedules', () => ok({ on_call_schedules: ctx.stores.onCall.list().map(toApiSchedule) }));
  router.on('POST /v1/on-call-schedules', async (req) => ok(await createSchedule(ctx, req.caller, await req.body())));
  router.on('GET /v1/on-call-schedules/{on_call_schedule_id}', (req) => ok(getSchedule(ctx, req.uuidParam('on_call_schedule_id'))));
  router.on('GET /v1/on-call-schedules/{on_call_schedule_id}/on-call', (req) => ok(onCallNow(ctx, req.uuidParam('on_call_schedule_id'))));
  router.on('POST /v1/on-call-schedules/{on_call_schedule_id}/sync', async (req) => {
    const id = req.uuidParam('on_call_schedule_id');
    getSchedule(ctx, id);
    await syncOnCall(ctx, ctx.clock.now(), undefined, [id]);
    return ok(onCallNow(ctx, id));
  });
  router.on('GET /v1/groups/{group_id}/on-call-schedules', (req) => ok({ on_call_schedules: groupSchedules(ctx, req.uuidParam('group_id')) }));
  router.on('PUT /v1/groups/{group_id}/on-call-schedules', async (req) => {
    const body = await req.body();
    return ok(setGroupSchedules(ctx, req.caller, req.uuidParam('group_id'), body.on_call_schedule_ids));
  });
}
