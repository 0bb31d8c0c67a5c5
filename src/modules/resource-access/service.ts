// Use cases that write users' access to resources: each change, its effect on open sessions and
// its audit event commit together.
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Actor, SubEvent } from '../events/store.ts';
import { toApiResourceUser, type ApiResourceUser, type EdgeKey, type ResourceUserRow } from './store.ts';

/** When access granted at `now` for `minutes` ends: null (no expiry) for 0, the spec's "indefinite". */
export function edgeExpiry(now: Date, minutes: number): string | null {
  return minutes === 0 ? null : new Date(now.getTime() + minutes * 60_000).toISOString();
}

/**
 * The name of `resourceId`'s access level `level` ('' is the default level and always exists).
 * Throws not_found naming `path` when the resource offers no such level.
 */
export function accessLevelName(ctx: AppContext, resourceId: string, level: string, path = 'access_level_remote_id'): string {
  const found = ctx.stores.resources.accessLevel(resourceId, level);
  if (!found) {
    throw new AppError('not_found', `resource ${resourceId} has no access level with remote id "${level}"`, [
      { path, message: 'no access level with this remote id on this resource' },
    ]);
  }
  return found.access_level_name;
}

/** Throws not_found (naming the path parameter) unless both ends of the edge exist. */
function requireEnds(ctx: AppContext, resourceId: string, userId: string): void {
  if (!ctx.stores.resources.exists(resourceId)) throw notFound('resource', resourceId, 'resource_id');
  if (!ctx.stores.users.exists(userId)) throw notFound('user', userId, 'user_id');
}

function subEvent(type: string, row: ResourceUserRow): SubEvent {
  return {
    sub_event_type: type,
    resource_id: row.resource_id,
    resource_name: row.resource_name,
    user_id: row.user_id,
    user_name: row.full_name,
    access_level_remote_id: row.access_level_remote_id,
    access_level_name: row.access_level_name,
    expiration_date: row.expiration_date,
  };
}

export interface AddResourceUserInput extends EdgeKey {
  durationMinutes: number;
}

/**
 * Gives a user direct access to a resource at a level, for a duration (0: no expiry); records RESOURCE_USERS_ADDED.
 * Throws not_found for an unknown resource, user or access level; conflict when the user already holds
 * unexpired access at that level (PUT changes it).
 */
export function addResourceUser(ctx: AppContext, actor: Actor, input: AddResourceUserInput): ApiResourceUser {
  const { resourceAccess, events } = ctx.stores;
  const now = ctx.clock.now();
  return ctx.db.transaction(() => {
    requireEnds(ctx, input.resourceId, input.userId);
    const levelName = accessLevelName(ctx, input.resourceId, input.level);
    if (resourceAccess.held(input, now)) {
      throw new AppError('conflict', `user ${input.userId} already has this access to resource ${input.resourceId}; use PUT to change its duration`, [
        { path: 'user_id', message: 'already holds access to this resource at this access level' },
      ]);
    }
    resourceAccess.grant({ ...input, levelName, expiresAt: edgeExpiry(now, input.durationMinutes) }, now);
    const row = resourceAccess.held(input, now)!;
    events.record(actor, 'RESOURCE_USERS_ADDED', [subEvent('RESOURCE_USERS_ADDED', row)]);
    return toApiResourceUser(row);
  }).immediate();
}

/**
 * Sets a new duration, counted from now (0: no expiry), on access the user holds; records RESOURCE_USERS_UPDATED.
 * Open sessions on that access are cut back to the new expiry. Throws not_found for an unknown resource,
 * user or access level, and when the user holds no unexpired access at that level.
 */
export function updateResourceUser(ctx: AppContext, actor: Actor, input: AddResourceUserInput): ApiResourceUser {
  const { resourceAccess, sessions, events } = ctx.stores;
  const now = ctx.clock.now();
  return ctx.db.transaction(() => {
    requireEnds(ctx, input.resourceId, input.userId);
    accessLevelName(ctx, input.resourceId, input.level);
    if (!resourceAccess.held(input, now)) {
      throw new AppError('not_found', `user ${input.userId} holds no access to resource ${input.resourceId} at this access level`, [
        { path: 'user_id', message: 'holds no access to this resource at this access level; POST gives it' },
      ]);
    }
    const expiresAt = edgeExpiry(now, input.durationMinutes);
    resourceAccess.setExpiry(input, expiresAt, now);
    if (expiresAt !== null) sessions.capOnEdge(input, expiresAt, now);
    const row = resourceAccess.held(input, now)!;
    events.record(actor, 'RESOURCE_USERS_UPDATED', [subEvent('RESOURCE_USERS_UPDATED', row)]);
    return toApiResourceUser(row);
  }).immediate();
}

/**
 * Takes away a user's direct access at a level and ends their open sessions on it; records
 * RESOURCE_USERS_REMOVED (with a SESSIONS_ENDED sub-event per session). Access not held is an empty
 * success that records nothing. Throws not_found for an unknown resource or user.
 */
export function removeResourceUser(ctx: AppContext, actor: Actor, key: EdgeKey): void {
  const { resourceAccess, sessions, events } = ctx.stores;
  const now = ctx.clock.now();
  ctx.db.transaction(() => {
    requireEnds(ctx, key.resourceId, key.userId);
    const row = resourceAccess.held(key, now);
    resourceAccess.revoke(key);
    if (!row) return;
    const ended = sessions.endOnEdge(key, now);
    events.record(actor, 'RESOURCE_USERS_REMOVED', [
      subEvent('RESOURCE_USERS_REMOVED', row),
      ...ended.map((connectionId): SubEvent => ({
        sub_event_type: 'SESSIONS_ENDED', connection_id: connectionId, resource_id: key.resourceId, user_id: key.userId,
      })),
    ]);
  }).immediate();
}
