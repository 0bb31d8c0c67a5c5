// Use cases that open and end sessions: each change and its audit event commit together.
import { addMinutes } from '../../lib/durations.ts';
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Actor, SubEvent } from '../events/store.ts';
import { NEVER } from '../access/edges.ts';
import { accessLevelName } from '../access/service.ts';
import type { ApiSession } from './mappers.ts';
import { requireSelfOrAdmin, type ActingAs } from '../../http/policy.ts';
import { assertVisible } from '../visibility/service.ts';

export interface OpenSessionInput {
  resourceId: string;
  userId: string;
  level: string;
  durationMinutes: number;
}

const sessionSubEvent = (type: string, session: ApiSession): SubEvent => ({
  sub_event_type: type,
  connection_id: session.connection_id,
  resource_id: session.resource_id,
  user_id: session.user_id,
  access_level_remote_id: session.access_level.access_level_remote_id,
  expiration_date: session.expiration_date,
});

/**
 * Opens a session for a user on a resource they hold unexpired access to at the level, ending after
 * the duration or when that access ends, whichever is first; records SESSIONS_CREATED.
 * Throws forbidden when a MEMBER opens one for someone else, not_found naming resource_id, user_id or
 * access_level_remote_id for an unknown one, and conflict (user_id) when the user holds no unexpired
 * access at that level.
 */
export function openSession(ctx: AppContext, actor: Actor & ActingAs, input: OpenSessionInput): ApiSession {
  const { users, holdings, sessions, events } = ctx.stores;
  const now = ctx.clock.now();
  return ctx.db.transaction(() => {
    requireSelfOrAdmin(actor, input.userId, 'open sessions');
    // A resource the caller does not see answers as a missing one (an operator at the CLI sees all).
    assertVisible(ctx, { userId: actor.userId, role: actor.role ?? 'ADMIN' }, 'resource', input.resourceId, 'resource_id');
    if (!users.exists(input.userId)) throw notFound('user', input.userId, 'user_id');
    const levelName = accessLevelName(ctx, 'resource', input.resourceId, input.level);
    // Held directly or through any group: the one definition of effective access.
    const held = holdings.resourcesOfUser(input.userId, now, input.resourceId).find((h) => h.level === input.level);
    if (!held) {
      throw new AppError('conflict', `user ${input.userId} holds no unexpired access to resource ${input.resourceId} at this access level`, [
        { path: 'user_id', message: 'holds no unexpired access to this resource at this access level' },
      ]);
    }
    const wanted = addMinutes(now, input.durationMinutes).toISOString();
    const expiresAt = held.exp !== NEVER && held.exp < wanted ? held.exp : wanted;
    const session = sessions.open({ ...input, levelName, expiresAt }, now);
    events.record(actor, 'SESSIONS_CREATED', [sessionSubEvent('SESSIONS_CREATED', session)]);
    return session;
  }).immediate();
}

/**
 * Ends an open session now; records SESSIONS_ENDED. A session already ended or expired is an empty
 * success that records nothing. Throws not_found for a connection id that never existed, and
 * forbidden when a MEMBER ends someone else's.
 */
export function endSession(ctx: AppContext, actor: Actor & ActingAs, connectionId: string): void {
  const { sessions, events } = ctx.stores;
  const now = ctx.clock.now();
  ctx.db.transaction(() => {
    const owner = sessions.userOf(connectionId);
    if (owner === undefined) throw notFound('session', connectionId, 'connection_id');
    requireSelfOrAdmin(actor, owner, 'end sessions');
    const session = sessions.getOpen(connectionId, now);
    if (!session || !sessions.end(connectionId, now)) return;
    events.record(actor, 'SESSIONS_ENDED', [sessionSubEvent('SESSIONS_ENDED', session)]);
  }).immediate();
}
