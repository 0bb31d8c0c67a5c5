// Use cases that write users: each change and its audit event commit together.
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Actor } from '../events/store.ts';
import type { ApiRemoteUser, ApiUser } from './store.ts';

export interface CreateUserInput {
  email: string;
  full_name: string;
  first_name?: string | undefined;
  last_name?: string | undefined;
  position: string;
  manager_id?: string | null | undefined;
}

/** Splits "Ada King Lovelace" into first "Ada" and last "King Lovelace" when the caller gave neither. */
function splitName(fullName: string): [string, string] {
  const space = fullName.indexOf(' ');
  return space < 0 ? [fullName, ''] : [fullName.slice(0, space), fullName.slice(space + 1).trim()];
}

/**
 * Creates a user and records USERS_CREATED.
 * Throws conflict when the email is taken, not_found when manager_id names no user.
 */
export function createUser(ctx: AppContext, actor: Actor, input: CreateUserInput): ApiUser {
  const { users, events } = ctx.stores;
  const [first, last] = splitName(input.full_name);
  return ctx.db.transaction(() => {
    if (users.getByEmail(input.email)) {
      throw new AppError('conflict', `a user with email ${input.email} already exists`, [{ path: 'email', message: 'already in use' }]);
    }
    const managerId = input.manager_id?.toLowerCase() ?? null;
    if (managerId !== null && !users.exists(managerId)) throw notFound('user', managerId, 'manager_id');
    const user = users.create(
      {
        email: input.email,
        full_name: input.full_name,
        first_name: input.first_name ?? first,
        last_name: input.last_name ?? last,
        position: input.position,
        manager_id: managerId,
      },
      ctx.clock.now(),
    );
    events.record(actor, 'USERS_CREATED', [
      { sub_event_type: 'USERS_CREATED', user_id: user.user_id, user_name: user.full_name, user_email: user.email },
    ]);
    return user;
  }).immediate();
}

/** Records a user's account on a third-party system; conflict when the user already has one there or the account is taken. */
export function addRemoteUser(ctx: AppContext, actor: Actor, userId: string, provider: string, remoteId: string): ApiRemoteUser {
  const { users, events } = ctx.stores;
  return ctx.db.transaction(() => {
    const user = users.get(userId);
    if (!user) throw notFound('user', userId, 'user_id');
    if (users.getRemote(userId, provider)) {
      throw new AppError('conflict', `user ${userId} already has a ${provider} account`, [{ path: 'third_party_provider', message: 'already recorded for this user' }]);
    }
    const remote = users.addRemote(userId, provider, remoteId, ctx.clock.now());
    events.record(actor, 'REMOTE_USERS_CREATED', [
      { sub_event_type: 'REMOTE_USERS_CREATED', user_id: userId, user_name: user.full_name, third_party_provider: provider, remote_id: remoteId },
    ]);
    return remote;
  }).immediate();
}

/** Forgets a user's account on a provider; removing one that is not there is an empty success and records nothing. */
export function removeRemoteUser(ctx: AppContext, actor: Actor, userId: string, provider: string): void {
  const { users, events } = ctx.stores;
  ctx.db.transaction(() => {
    if (!users.exists(userId)) throw notFound('user', userId);
    if (!users.removeRemote(userId, provider)) return;
    events.record(actor, 'REMOTE_USERS_DELETED', [
      { sub_event_type: 'REMOTE_USERS_DELETED', user_id: userId, third_party_provider: provider },
    ]);
  }).immediate();
}
