// Use cases that link non-human identities to resources: each change and its audit event commit together.
import type { AppContext } from '../../context.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import type { Actor, SubEvent } from '../events/store.ts';
import { edgeExpiry } from '../access/edges.ts';
import { accessLevelName } from '../access/service.ts';
import { isNonHumanIdentityType, NON_HUMAN_IDENTITY_TYPES, type NhiLinkKey, type ResourceNhiRow } from './store.ts';
import { toApiResourceNhi } from './mappers.ts';

function subEvent(type: string, row: ResourceNhiRow): SubEvent {
  return {
    sub_event_type: type,
    resource_id: row.resource_id,
    resource_name: row.resource_name,
    non_human_identity_id: row.non_human_identity_id,
    non_human_identity_name: row.non_human_identity_name,
    access_level_remote_id: row.access_level_remote_id,
    access_level_name: row.access_level_name,
    expiration_date: row.expiration_date,
  };
}

/** Throws not_found (naming the path parameter) unless both resources exist. */
function requireEnds(ctx: AppContext, key: NhiLinkKey): void {
  const { resources } = ctx.stores;
  if (!resources.exists(key.resourceId)) throw notFound('resource', key.resourceId, 'resource_id');
  if (!resources.exists(key.nhiId)) throw notFound('non-human identity', key.nhiId, 'non_human_identity_id');
}

export interface AttachInput extends NhiLinkKey {
  durationMinutes: number;
}

/**
 * Gives a non-human identity access to a resource at a level, for a duration (0: no expiry);
 * records RESOURCE_NON_HUMAN_IDENTITIES_ADDED. Throws not_found for an unknown resource, identity or
 * access level; validation_failed when the identity is not a non-human identity type or is the resource
 * itself; conflict when the identity already holds unexpired access at that level.
 */
export function attachNonHumanIdentity(ctx: AppContext, actor: Actor, input: AttachInput) {
  const { resources, nonHumanIdentities, events } = ctx.stores;
  const now = ctx.clock.now();
  return ctx.db.transaction(() => {
    requireEnds(ctx, input);
    if (!isNonHumanIdentityType(resources.resourceType(input.nhiId) ?? '')) {
      throw invalidField('non_human_identity_id', `is not a non-human identity: its resource_type must be one of ${NON_HUMAN_IDENTITY_TYPES.join(', ')}`);
    }
    if (input.nhiId === input.resourceId) throw invalidField('non_human_identity_id', 'must not be the resource itself');
    const levelName = accessLevelName(ctx, 'resource', input.resourceId, input.level);
    if (nonHumanIdentities.held(input, now)) {
      throw new AppError('conflict', `non-human identity ${input.nhiId} already has this access to resource ${input.resourceId}; detach it first to change it`, [
        { path: 'non_human_identity_id', message: 'already holds access to this resource at this access level' },
      ]);
    }
    nonHumanIdentities.attach({ ...input, levelName, expiresAt: edgeExpiry(now, input.durationMinutes) }, now);
    const row = nonHumanIdentities.held(input, now)!;
    events.record(actor, 'RESOURCE_NON_HUMAN_IDENTITIES_ADDED', [subEvent('RESOURCE_NON_HUMAN_IDENTITIES_ADDED', row)]);
    return toApiResourceNhi(row);
  }).immediate();
}

/**
 * Takes away a non-human identity's direct access at a level; records RESOURCE_NON_HUMAN_IDENTITIES_REMOVED.
 * A link that is not there (or has expired) is an empty success that records nothing; the identity's
 * type is not checked, so a link outlives a change of type. Throws not_found for an unknown resource or identity.
 */
export function detachNonHumanIdentity(ctx: AppContext, actor: Actor, key: NhiLinkKey): void {
  const { nonHumanIdentities, events } = ctx.stores;
  const now = ctx.clock.now();
  ctx.db.transaction(() => {
    requireEnds(ctx, key);
    const row = nonHumanIdentities.held(key, now);
    nonHumanIdentities.detach(key);
    if (row) events.record(actor, 'RESOURCE_NON_HUMAN_IDENTITIES_REMOVED', [subEvent('RESOURCE_NON_HUMAN_IDENTITIES_REMOVED', row)]);
  }).immediate();
}
