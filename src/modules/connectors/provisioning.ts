// Connectors create the people they grant to and remove them when they leave (docs/connectors.md,
// "People a connector creates"): an adapter that can create a remote user does so on a first grant
// (made-users.ts remembers it was Gatehouse), and when the person is offboarded an outbox row removes
// each remote user Gatehouse made — after their memberships there are removed, never before.
import type { AppContext } from '../../context.ts';
import { enqueue, OUTBOX_ACTOR, type Attempt, type OutboxHandler, type OutboxItem } from '../../outbox/index.ts';
import { adapterFor } from './adapters.ts';

export const DEPROVISION_KIND = 'connector.deprovision-user';

interface DeprovisionPayload {
  app_id: string;
  user_id: string;
  remote_user_id: string;
}

/** How long to wait, at first, for the person's memberships to be removed before removing the account. */
const WAIT_FOR_PUSHES_MS = 1_000;

/**
 * The listener for a person offboarded (inside that transaction): queues the removal of every remote user
 * a connector created for them. Remote users Gatehouse only matched by email are left (their memberships
 * still end: offboarding removes every edge, and each removal is pushed).
 */
export function queueDeprovisions(ctx: AppContext, notice: { userId: string }): void {
  for (const made of ctx.stores.connectors.madeUsersOf(notice.userId)) {
    const payload: DeprovisionPayload = { app_id: made.app_id, user_id: notice.userId, remote_user_id: made.remote_user_id };
    enqueue(ctx, { kind: DEPROVISION_KIND, key: `connector:${made.app_id}:user:${notice.userId}`, payload });
  }
}

async function runDeprovision(ctx: AppContext, item: OutboxItem<DeprovisionPayload>, signal: AbortSignal): Promise<Attempt> {
  const p = item.payload;
  const connector = ctx.stores.connectors.get(p.app_id);
  if (!connector) return { ok: true };
  // Memberships first: a removal still queued would fail against an account already gone.
  if (ctx.stores.connectors.unsettledPushesOf(p.app_id, p.user_id) > 0) {
    return { ok: false, code: 'ERR_PENDING', error: 'waiting for the person\'s memberships to be removed first', retryAfterMs: WAIT_FOR_PUSHES_MS };
  }
  const adapter = adapterFor(ctx, connector);
  if (!adapter.deprovisionUser) return { ok: true };
  return adapter.deprovisionUser(p.remote_user_id, signal);
}

/** Forgets the remote user once removed, and records CONNECTOR_USERS_DELETED (or the failure, as OUTBOX_ITEMS_FAILED does). */
function settleDeprovision(ctx: AppContext, item: OutboxItem<DeprovisionPayload>, outcome: Parameters<NonNullable<OutboxHandler['settled']>>[2]): void {
  if (outcome.state !== 'DONE') return;
  const p = item.payload;
  ctx.stores.connectors.forgetUser(p.app_id, p.remote_user_id);
  ctx.stores.events.record(OUTBOX_ACTOR, 'CONNECTOR_USERS_DELETED', [
    { sub_event_type: 'CONNECTOR_USERS_DELETED', app_id: p.app_id, user_id: p.user_id, remote_user_id: p.remote_user_id },
  ]);
}

export const connectorDeprovision: OutboxHandler<DeprovisionPayload> = {
  run: runDeprovision,
  settled: settleDeprovision,
  giveUpAfterMs: 7 * 24 * 3_600_000,
  // The app's lane, as its pushes: one slow connector holds only its share.
  lane: (key) => key.slice(0, key.indexOf(':', 'connector:'.length) + 1),
};
