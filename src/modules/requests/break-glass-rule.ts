// The request a break-glass records (docs/break-glass.md): made and approved at once by the break-glass
// rule, and granted through the same approval as any other request, so access, its event and its
// propagation to connected systems are the same as for a reviewed request.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../events/store.ts';
import { systemActor } from '../../lib/system-actor.ts';
import { completeApproval, requestSubEvents } from './decide.ts';
import type { RequestRow } from './store.ts';
import type { ItemPlan } from './service.ts';

/** Who approves a break-glass request in the audit trail: no person, the rule. */
export const BREAK_GLASS_ACTOR = systemActor('Gatehouse (break-glass rule)');

/** The one item, as a planned request item names it, and who asks, why, for how long. */
export interface BreakGlassRequest extends Pick<ItemPlan, 'itemType' | 'itemId' | 'itemName' | 'remoteId' | 'remoteName' | 'level' | 'levelName'> {
  userId: string;
  reason: string;
  durationMinutes: number;
}

/**
 * Records a request by `actor` for their own access to one item, marked break_glass, with
 * REQUESTS_CREATED, then approves it at once as the break-glass rule (REQUESTS_APPROVED, the grant and
 * its access event). Call inside the caller's write transaction; the eligibility checks are the
 * caller's. Throws what an approval throws (conflict when the item or level is gone). Returns the request.
 */
export function recordBreakGlassRequest(ctx: AppContext, actor: Actor, input: BreakGlassRequest, now: Date): RequestRow {
  const { requests, events } = ctx.stores;
  const id = requests.create({
    requester_id: input.userId, target_user_id: input.userId, target_group_id: null, reason: input.reason,
    duration_minutes: input.durationMinutes, support_ticket: null, custom_metadata: '[]', break_glass: 1,
  }, now);
  // No stages: nobody reviews it before; the break-glass review comes after (the break-glass area).
  requests.addItem({
    request_id: id, position: 1, item_type: input.itemType, item_id: input.itemId, item_name: input.itemName,
    remote_id: input.remoteId, remote_name: input.remoteName, access_level_remote_id: input.level, access_level_name: input.levelName,
    configuration_priority: null, matched_group_id: null, auto_approved: 1, stage_count: 0, current_stage: 1,
  });
  const row = requests.get(id)!;
  events.record(actor, 'REQUESTS_CREATED', requestSubEvents(ctx, 'REQUESTS_CREATED', row, {
    requester_name: actor.name, reason: row.reason, duration_minutes: row.duration_minutes, break_glass: true,
  }));
  completeApproval(ctx, BREAK_GLASS_ACTOR, row, now, { break_glass: true });
  return requests.get(id)!;
}
