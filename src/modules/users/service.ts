// Use cases that write users: each change and its audit event commit together.
import type { AppContext } from '../../context.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import type { Actor } from '../events/store.ts';
import { offboardUser } from '../access/service.ts';
import { announce } from '../../signals.ts';
import { isOffboarded } from '../../lib/offboarding.ts';
import { syncActiveRules } from '../access-rules/service.ts';
import { revokeTokensOfUser } from '../tokens/service.ts';
import { endLinksOfUser, endSessionsOfUser } from '../web-sessions/service.ts';
import type { RenameUserInput, UpdateUserInput } from './schemas.ts';
import { requireSelfOrAdmin, type ActingAs } from '../../http/policy.ts';
import type { ApiRemoteUser, ApiUser } from './mappers.ts';
import { DEFAULT_ORGANIZATION_ROLE, type OrganizationRole } from './roles.ts';

export interface CreateUserInput {
  email: string;
  full_name: string;
  first_name?: string | undefined;
  last_name?: string | undefined;
  position: string;
  manager_id?: string | null | undefined;
  organization_role?: OrganizationRole | undefined;
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
        organization_role: input.organization_role ?? DEFAULT_ORGANIZATION_ROLE,
      },
      ctx.clock.now(),
    );
    events.record(actor, 'USERS_CREATED', [
      { sub_event_type: 'USERS_CREATED', user_id: user.user_id, user_name: user.full_name, user_email: user.email,
        organization_role: user.organization_role },
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

/**
 * Throws conflict (at `path`) when `userId` is the organization's last admin who is not offboarded:
 * demoting or offboarding them would leave nobody able to administer Gatehouse.
 */
function keepAnAdmin(ctx: AppContext, user: ApiUser, path: string, change: string): void {
  if (user.organization_role !== 'ADMIN' || isOffboarded(user.hr_idp_status)) return;
  if (ctx.stores.users.otherActiveAdmins(user.user_id) > 0) return;
  throw new AppError('conflict', `user ${user.user_id} is the organization's last admin: ${change} would leave it with none; make another user ADMIN first`, [
    { path, message: 'would leave the organization without an admin' },
  ]);
}

/**
 * Sets a user's role and records USERS_ROLE_UPDATED; inside the caller's transaction. Nothing when unchanged.
 * Demoting an admin ends the console sessions they started as one, at once (WEB_SESSIONS_ENDED).
 */
function changeRole(ctx: AppContext, actor: Actor, user: ApiUser, role: OrganizationRole): void {
  if (role === user.organization_role) return;
  if (role !== 'ADMIN') keepAnAdmin(ctx, user, 'organization_role', `making them ${role}`);
  ctx.stores.users.setRole(user.user_id, role);
  ctx.stores.events.record(actor, 'USERS_ROLE_UPDATED', [
    { sub_event_type: 'USERS_ROLE_UPDATED', user_id: user.user_id, user_name: user.full_name,
      previous_organization_role: user.organization_role, organization_role: role },
  ]);
  if (user.organization_role === 'ADMIN') endSessionsOfUser(ctx, actor, user.user_id, 'DEMOTED');
}

/**
 * Sets a user's organization role (the CLI's `user set-role`) and records USERS_ROLE_UPDATED;
 * an unchanged role is an empty success that records nothing. Throws not_found for an unknown user
 * and conflict when it would demote the last admin who is not offboarded.
 */
export function setOrganizationRole(ctx: AppContext, actor: Actor, userId: string, role: OrganizationRole): ApiUser {
  const { users } = ctx.stores;
  return ctx.db.transaction(() => {
    const user = users.get(userId);
    if (!user) throw notFound('user', userId, 'user_id');
    changeRole(ctx, actor, user, role);
    return users.get(userId)!;
  }).immediate();
}

/** The position the console gives a service user (a person record for a script or system, docs/users-and-tokens.md). */
export const SERVICE_USER_POSITION = 'Service user';

/** Whether `user` is a service user: made for a machine, so no identity provider manages it. */
export const isServiceUser = (user: Pick<ApiUser, 'position'>): boolean =>
  user.position.trim().toLowerCase() === SERVICE_USER_POSITION.toLowerCase();

/**
 * Updates a user's email, name, position, manager or hr_idp_status and records USERS_UPDATED.
 * A new email is changeUserEmail's (told to both addresses, the person's sessions and links end). Setting
 * SUSPENDED, DEPROVISIONED or DELETED offboards them in the same transaction: every edge they hold
 * (resources, groups, rule memberships) is removed and their open sessions end, each as a sub-event
 * of the same event, and their console sessions and API tokens end for good (WEB_SESSIONS_ENDED,
 * API_TOKENS_DELETED); access rules re-evaluate on any status change. A changed organization_role is
 * recorded as its own USERS_ROLE_UPDATED (and USERS_UPDATED only when other fields were given, or none).
 * Throws not_found for an unknown user or manager, validation_failed (manager_id) when a user would
 * manage themselves, and conflict when demoting or offboarding the last admin who is not offboarded.
 */
export function updateUser(ctx: AppContext, actor: Actor, userId: string, input: UpdateUserInput): ApiUser {
  const { users, events } = ctx.stores;
  const now = ctx.clock.now();
  return ctx.db.transaction(() => {
    const user = users.get(userId);
    if (!user) throw notFound('user', userId, 'user_id');
    const managerId = input.manager_id === undefined ? (user.manager_id ?? null) : input.manager_id?.toLowerCase() ?? null;
    if (managerId === userId) throw invalidField('manager_id', 'must not be the user themselves');
    if (managerId !== null && !users.exists(managerId)) throw notFound('user', managerId, 'manager_id');
    const status = input.hr_idp_status ?? user.hr_idp_status;
    if (isOffboarded(status)) keepAnAdmin(ctx, user, 'hr_idp_status', `making them ${status}`);
    const { organization_role: role, email, ...fields } = input;
    if (role !== undefined) changeRole(ctx, actor, user, role);
    if (email !== undefined) changeUserEmail(ctx, actor, userId, email);
    users.update(userId, {
      full_name: input.full_name ?? user.full_name,
      first_name: input.first_name ?? user.first_name,
      last_name: input.last_name ?? user.last_name,
      position: input.position ?? user.position,
      manager_id: managerId,
      hr_idp_status: status,
    });
    const ended = isOffboarded(status) ? offboardUser(ctx, actor, userId, now) : [];
    if (isOffboarded(status)) {
      // At once and for good: re-activating them later must not bring a session or a token back.
      endSessionsOfUser(ctx, actor, userId, 'OFFBOARDED');
      endLinksOfUser(ctx, userId);
      revokeTokensOfUser(ctx, actor, userId);
    }
    // A body of only organization_role or email changed nothing more USERS_UPDATED describes (the email
    // has its own); an empty body is recorded as ever.
    if (Object.keys(fields).length > 0 || (role === undefined && email === undefined)) {
      events.record(actor, 'USERS_UPDATED', [
        { sub_event_type: 'USERS_UPDATED', user_id: userId, user_name: input.full_name ?? user.full_name, hr_idp_status: status,
          updated_fields: Object.keys(fields).join(',') },
        ...ended,
      ]);
    }
    if (status !== user.hr_idp_status) syncActiveRules(ctx, actor, now);
    // Connectors remove the remote accounts they made for the person (docs/connectors.md).
    if (isOffboarded(status) && !isOffboarded(user.hr_idp_status)) announce(ctx, 'users.offboarded', { userId, status }, now);
    return users.get(userId)!;
  }).immediate();
}

/**
 * Changes a user's email — an admin (`PUT /v1/users/{id}` with `email`, the console) or an identity
 * provider renaming a person — and records USERS_UPDATED with both addresses. The change is told to the
 * old address and the new one (signal `users.email-changed`: the notifications area mails both), and it
 * ends the person's console sessions (WEB_SESSIONS_ENDED, EMAIL_CHANGED) and every sign-in link and
 * invitation not yet used: whoever held the old address can no longer act as them. The same email (in
 * any case) is an empty success. Joins the caller's transaction, or runs in its own. Throws not_found
 * for an unknown user and conflict (naming `path`) when another user has the email.
 */
export function changeUserEmail(ctx: AppContext, actor: Actor, userId: string, email: string, path = 'email'): void {
  const { users, events } = ctx.stores;
  ctx.db.transaction(() => {
    const user = users.get(userId);
    if (!user) throw notFound('user', userId, 'user_id');
    if (user.email === email) return;
    const holder = users.getByEmail(email);
    if (holder && holder.user_id !== userId) {
      throw new AppError('conflict', `a user with email ${email} already exists`, [{ path, message: 'already in use' }]);
    }
    const now = ctx.clock.now();
    users.setEmail(userId, email);
    events.record(actor, 'USERS_UPDATED', [
      { sub_event_type: 'USERS_UPDATED', user_id: userId, user_name: user.full_name, hr_idp_status: user.hr_idp_status, updated_fields: 'email',
        previous_email: user.email, user_email: email },
    ]);
    // Only a change of address, not of its case, hands the account to another mailbox.
    if (user.email.toLowerCase() === email.toLowerCase()) return;
    endSessionsOfUser(ctx, actor, userId, 'EMAIL_CHANGED');
    endLinksOfUser(ctx, userId);
    announce(ctx, 'users.email-changed', { userId, previousEmail: user.email, email, actorName: actor.name ?? null }, now);
  }).immediate();
}

/**
 * Changes the name people see (`PUT /v1/users/{user_id}/name`): a person their own, an admin anyone's.
 * Records USERS_UPDATED (updated_fields full_name) in the same transaction. Throws not_found for an
 * unknown user and forbidden for a member naming someone else.
 */
export function renameUser(ctx: AppContext, actor: Actor & ActingAs, userId: string, input: RenameUserInput): ApiUser {
  const { users, events } = ctx.stores;
  return ctx.db.transaction(() => {
    const user = users.get(userId);
    if (!user) throw notFound('user', userId, 'user_id');
    requireSelfOrAdmin(actor, userId, 'change a name');
    users.update(userId, {
      full_name: input.full_name,
      first_name: user.first_name,
      last_name: user.last_name,
      position: user.position,
      manager_id: user.manager_id ?? null,
      hr_idp_status: user.hr_idp_status,
    });
    events.record(actor, 'USERS_UPDATED', [
      { sub_event_type: 'USERS_UPDATED', user_id: userId, user_name: input.full_name, hr_idp_status: user.hr_idp_status, updated_fields: 'full_name' },
    ]);
    return users.get(userId)!;
  }).immediate();
}
