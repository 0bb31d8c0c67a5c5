// Delegations: create and delete them (with their events), and who reviews in whose place at an instant.
import type { AppContext } from '../../context.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import type { Caller } from '../../http/types.ts';
import { isOffboarded } from '../../lib/offboarding.ts';
import type { DelegationRow } from './store.ts';
import { toApiDelegation } from './mappers.ts';
import type { CreateDelegationInput } from './schemas.ts';

const subEvent = (type: string, row: DelegationRow) => ({
  sub_event_type: type,
  delegation_id: row.id,
  delegator_user_id: row.delegator_user_id,
  delegate_user_id: row.delegate_user_id,
  start_time: row.start_time,
  end_time: row.end_time,
});

/**
 * Creates a delegation and records DELEGATIONS_CREATED. A member delegates only their own reviews
 * (403 otherwise). Throws not_found for an unknown user, validation_failed for a delegation to
 * oneself, an end not after the start or already past, and conflict when the delegator already has
 * a delegation whose window overlaps (so at any instant one delegate at most acts for a reviewer).
 */
export function createDelegation(ctx: AppContext, caller: Caller, input: CreateDelegationInput) {
  const { users, delegations, events } = ctx.stores;
  const now = ctx.clock.now();
  if (caller.role !== 'ADMIN' && input.delegator_user_id !== caller.userId) {
    throw new AppError('forbidden', 'a member may delegate only their own reviews: delegator_user_id must be your user', [
      { path: 'delegator_user_id', message: 'must be your own user unless you are an admin' },
    ]);
  }
  if (!users.exists(input.delegator_user_id)) throw notFound('user', input.delegator_user_id, 'delegator_user_id');
  if (!users.exists(input.delegate_user_id)) throw notFound('user', input.delegate_user_id, 'delegate_user_id');
  if (isOffboarded(users.get(input.delegate_user_id)!.hr_idp_status)) {
    throw invalidField('delegate_user_id', 'is suspended, deprovisioned or deleted, so could not review: the reviews would be stranded');
  }
  if (input.delegate_user_id === input.delegator_user_id) throw invalidField('delegate_user_id', 'must not be the delegator');
  if (input.end_time <= input.start_time) throw invalidField('end_time', 'must be after start_time');
  if (input.end_time <= now.toISOString()) throw invalidField('end_time', 'is already past: the delegation would never be in force');
  return ctx.db.transaction(() => {
    const clash = delegations.overlapping(input.delegator_user_id, input.start_time, input.end_time);
    if (clash) {
      throw new AppError('conflict', `delegation ${clash.id} of this delegator already covers part of this window`, [
        { path: 'start_time', message: `overlaps delegation ${clash.id} (${clash.start_time} to ${clash.end_time})` },
      ]);
    }
    const row = delegations.create(input, now);
    events.record(caller, 'DELEGATIONS_CREATED', [{ ...subEvent('DELEGATIONS_CREATED', row), reason: row.reason }]);
    return toApiDelegation(row);
  }).immediate();
}

/**
 * Deletes a delegation and records DELEGATIONS_DELETED; reviews go back to the delegator at once.
 * Only its delegator or an admin may (403). Throws not_found for an unknown delegation.
 */
export function deleteDelegation(ctx: AppContext, caller: Caller, id: string): void {
  const { delegations, events } = ctx.stores;
  ctx.db.transaction(() => {
    const row = delegations.get(id);
    if (!row) throw notFound('delegation', id, 'delegation_id');
    if (caller.role !== 'ADMIN' && row.delegator_user_id !== caller.userId) {
      throw new AppError('forbidden', 'only the delegator or an admin may delete a delegation', [
        { path: 'delegation_id', message: 'is not your delegation' },
      ]);
    }
    delegations.delete(id);
    events.record(caller, 'DELEGATIONS_DELETED', [subEvent('DELEGATIONS_DELETED', row)]);
  }).immediate();
}

/** Who reviews for `reviewerId` at `now`: their delegate while a delegation is in force, else themselves. */
export function effectiveReviewer(ctx: AppContext, reviewerId: string, now: Date): { userId: string; delegation: DelegationRow | undefined } {
  const delegation = ctx.stores.delegations.inForce(reviewerId, now);
  return { userId: delegation ? delegation.delegate_user_id : reviewerId, delegation };
}
