// Use cases that write owners: checks on referenced users and groups, then one transaction with the audit event.
import type { AppContext } from '../../context.ts';
import { casefold } from '../../lib/casefold.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import type { Actor } from '../events/store.ts';
import type { ApiUser } from '../users/mappers.ts';
import type { OwnerFields, OwnerRow } from './store.ts';
import { toApiOwner, type ApiOwner } from './mappers.ts';
import type { UpdateOwnerInput } from './schemas.ts';
import { refuseIfNamedInConfigurations } from '../request-settings/service.ts';

export interface CreateOwnerInput {
  name: string;
  description: string;
  access_request_escalation_period: number;
  user_ids: string[];
  reviewer_message_channel_id?: string | undefined;
  source_group_id?: string | undefined;
}

const nameTaken = (name: string, path: string) =>
  new AppError('conflict', `an owner named ${JSON.stringify(name)} already exists`, [{ path, message: 'already in use' }]);

/** Throws not_found naming `${path}.N` for the first listed user that does not exist. */
function checkUsers(ctx: AppContext, userIds: string[], path: string): void {
  userIds.forEach((id, index) => {
    if (!ctx.stores.users.exists(id)) throw notFound('user', id, `${path}.${index}`);
  });
}

/**
 * Creates an owner with its users (in escalation order) and records OWNERS_CREATED.
 * Throws validation_failed when user_ids is not empty alongside source_group_id, not_found naming
 * `user_ids.N`, `source_group_id` or `reviewer_message_channel_id` for an unknown reference, conflict when the name is taken.
 */
export function createOwner(ctx: AppContext, actor: Actor, input: CreateOwnerInput): ApiOwner {
  const { owners, groups, events } = ctx.stores;
  const sourceGroupId = input.source_group_id?.toLowerCase() ?? null;
  // The reference: an owner synced from a source group takes its users from there, not from this list.
  if (sourceGroupId !== null && input.user_ids.length > 0) throw invalidField('user_ids', 'must be empty when source_group_id is given');
  checkUsers(ctx, input.user_ids, 'user_ids');
  if (sourceGroupId !== null && !groups.exists(sourceGroupId)) throw notFound('group', sourceGroupId, 'source_group_id');
  const channelId = input.reviewer_message_channel_id?.toLowerCase() ?? null;
  checkChannel(ctx, channelId, 'reviewer_message_channel_id');
  return ctx.db.transaction(() => {
    if (owners.getByName(input.name)) throw nameTaken(input.name, 'name');
    const row = owners.create(
      {
        name: input.name,
        description: input.description,
        access_request_escalation_period: input.access_request_escalation_period,
        reviewer_message_channel_id: channelId,
        source_group_id: sourceGroupId,
      },
      ctx.clock.now(),
    );
    owners.setUsers(row.id, input.user_ids);
    events.record(actor, 'OWNERS_CREATED', [
      { sub_event_type: 'OWNERS_CREATED', owner_id: row.id, owner_name: row.name },
      ...input.user_ids.map((id) => ({ sub_event_type: 'OWNER_USER_ADDED', owner_id: row.id, user_id: id })),
    ]);
    return toApiOwner(row);
  }).immediate();
}

/** Throws not_found naming `path` when a reviewer message channel is named that Gatehouse does not keep (POST /v1/message-channels). */
function checkChannel(ctx: AppContext, channelId: string | null, path: string): void {
  if (channelId !== null && !ctx.stores.integrationRecords.exists('message_channel', channelId)) {
    throw notFound('message channel', channelId, path);
  }
}

/** The stored fields after applying one update item ("" clears a link; absent keeps it). */
function merged(row: OwnerRow, item: UpdateOwnerInput): OwnerFields {
  const link = (given: string | undefined, current: string | null) =>
    given === undefined ? current : given === '' ? null : given.toLowerCase();
  return {
    name: item.name ?? row.name,
    description: item.description ?? row.description,
    access_request_escalation_period: item.access_request_escalation_period ?? row.access_request_escalation_period ?? 0,
    reviewer_message_channel_id: link(item.reviewer_message_channel_id, row.reviewer_message_channel_id),
    source_group_id: link(item.source_group_id, row.source_group_id),
  };
}

/**
 * Updates several owners, all or nothing, and records one OWNERS_UPDATED listing each.
 * Throws validation_failed for an owner listed twice, not_found naming `owners.N.owner_id`,
 * `owners.N.source_group_id` or `owners.N.reviewer_message_channel_id`, conflict naming `owners.N.name` when a name would be shared.
 */
export function updateOwners(ctx: AppContext, actor: Actor, items: UpdateOwnerInput[]): ApiOwner[] {
  const { owners, groups, events } = ctx.stores;
  return ctx.db.transaction(() => {
    const seen = new Set<string>();
    const planned = items.map((item, index) => {
      const id = item.owner_id.toLowerCase();
      if (seen.has(id)) throw invalidField(`owners.${index}.owner_id`, 'lists an owner a second time');
      seen.add(id);
      const row = owners.get(id);
      if (!row) throw notFound('owner', id, `owners.${index}.owner_id`);
      const fields = merged(row, item);
      if (fields.source_group_id !== null && fields.source_group_id !== row.source_group_id && !groups.exists(fields.source_group_id)) {
        throw notFound('group', fields.source_group_id, `owners.${index}.source_group_id`);
      }
      if (fields.reviewer_message_channel_id !== row.reviewer_message_channel_id) {
        checkChannel(ctx, fields.reviewer_message_channel_id, `owners.${index}.reviewer_message_channel_id`);
      }
      return { index, row, fields };
    });

    // Names must be unique in the end state; owners swapping names within one call is allowed.
    const finalNameOwner = new Map<string, string>();
    for (const { index, row, fields } of planned) {
      if (finalNameOwner.has(fields.name)) throw nameTaken(fields.name, `owners.${index}.name`);
      finalNameOwner.set(fields.name, row.id);
    }
    for (const { index, fields } of planned) {
      const holder = owners.getByName(fields.name);
      if (holder && !seen.has(holder.id)) throw nameTaken(fields.name, `owners.${index}.name`);
    }
    // SQLite checks UNIQUE per statement, so renamed owners park on their (unique) id first.
    for (const { row, fields } of planned) if (fields.name !== row.name) owners.rename(row.id, `\u0000${row.id}`);

    const at = ctx.clock.now();
    // Linking or unlinking a source group forgets the listed users, so a stale list (kept from before
    // the link, or by a database older than this rule) never comes back as reviewers: it starts empty.
    const forgotten = planned.flatMap(({ row, fields }) => {
      if (fields.source_group_id === row.source_group_id) return [];
      const dropped = owners.userIds(row.id);
      owners.setUsers(row.id, []);
      return dropped.map((userId) => ({ sub_event_type: 'OWNER_USER_REMOVED', owner_id: row.id, user_id: userId }));
    });
    const updated = planned.map(({ row, fields }) => owners.update(row.id, fields, at));
    if (updated.length > 0) {
      events.record(
        actor,
        'OWNERS_UPDATED',
        [...updated.map((row) => ({ sub_event_type: 'OWNERS_UPDATED', owner_id: row.id, owner_name: row.name })), ...forgotten],
      );
    }
    return updated.map(toApiOwner);
  }).immediate();
}

/**
 * Deletes an owner that administers nothing, with its user list, and records OWNERS_DELETED.
 * Throws not_found for an unknown owner; conflict, listing what it still owns, or while a request
 * configuration names it as a reviewer.
 */
export function deleteOwner(ctx: AppContext, actor: Actor, ownerId: string): void {
  const { owners, events } = ctx.stores;
  ctx.db.transaction(() => {
    const row = owners.get(ownerId);
    if (!row) throw notFound('owner', ownerId);
    const counts = owners.owned(ownerId);
    const held = Object.entries(counts).filter(([, n]) => n > 0).map(([kind, n]) => `${n} ${n === 1 ? kind.slice(0, -1) : kind}`);
    if (held.length > 0) {
      const what = held.join(', ');
      throw new AppError('conflict', `owner ${ownerId} still administers ${what}; give them another admin owner or delete them first`, [
        { path: 'owner_id', message: `still administers ${what}` },
      ]);
    }
    refuseIfNamedInConfigurations(ctx, 'owner', ownerId, 'owner_id');
    owners.delete(ownerId);
    events.record(actor, 'OWNERS_DELETED', [{ sub_event_type: 'OWNERS_DELETED', owner_id: row.id, owner_name: row.name }]);
  }).immediate();
}

/** The owner's users in escalation order. */
export function ownerUsers(ctx: AppContext, ownerId: string): ApiUser[] {
  // The users area owns users' rows: each is read through its store (a keyed lookup each; owners have few).
  return ownerUserIds(ctx, ownerId).map((id) => ctx.stores.users.get(id)!);
}

/** Whether `userId` is one of the owner's users (ownerUserIds), without listing a source group's members. */
export function ownerHasUser(ctx: AppContext, ownerId: string, userId: string): boolean {
  const { owners, holdings } = ctx.stores;
  const row = owners.get(ownerId);
  if (!row) return false;
  if (row.source_group_id === null) return owners.userIds(ownerId).includes(userId);
  return holdings.groupsOfUser(userId, ctx.clock.now()).some((held) => held.item_id === row.source_group_id);
}

/** Code-unit order, as SQLite's BINARY collation compares. */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The owner's users: its listed users in escalation order or, while it has a `source_group_id`, the
 * users who hold that group now (directly or through nesting: the access graph's one definition), by
 * email (case-folded; the user id breaks a tie). An unknown owner has none.
 */

export function ownerUserIds(ctx: AppContext, ownerId: string): string[] {
  const { owners, holdings } = ctx.stores;
  const row = owners.get(ownerId);
  if (!row) return [];
  if (row.source_group_id === null) return owners.userIds(ownerId);
  // Holdings come in user-id order, one per level: each user once, then put in email order (case-folded,
  // the id breaking a tie), the same whatever ids people were given, so reviewers taken in turn from a
  // group-backed owner (access reviews' round-robin) come in the same order every time.
  const ids = new Set<string>();
  for (const holding of holdings.everyHolder('group', row.source_group_id, ctx.clock.now())) ids.add(holding.user_id);
  const emailOf = new Map([...ids].map((id) => [id, casefold(ctx.stores.users.get(id)?.email ?? '')]));
  return [...ids].sort((a, b) => compareText(emailOf.get(a)!, emailOf.get(b)!) || compareText(a, b));
}

/**
 * Replaces the owner's users (the order given is the escalation order) and records OWNER_USERS_UPDATED.
 * Throws not_found for an unknown owner or (naming `user_ids.N`) user, conflict when the owner
 * takes its users from a source group.
 */
export function setOwnerUsers(ctx: AppContext, actor: Actor, ownerId: string, userIds: string[]): ApiUser[] {
  const { owners, events } = ctx.stores;
  return ctx.db.transaction(() => {
    const row = owners.get(ownerId);
    if (!row) throw notFound('owner', ownerId);
    if (row.source_group_id !== null) {
      throw new AppError('conflict', `owner ${ownerId} takes its users from source group ${row.source_group_id}; clear source_group_id first`, [
        { path: 'user_ids', message: 'cannot be set while the owner has a source group' },
      ]);
    }
    checkUsers(ctx, userIds, 'user_ids');
    const before = owners.userIds(ownerId);
    owners.setUsers(ownerId, userIds);
    // Users that joined or left get a sub-event each, so the object filter finds the change from either side.
    events.record(actor, 'OWNER_USERS_UPDATED', [
      { sub_event_type: 'OWNER_USERS_UPDATED', owner_id: row.id, owner_name: row.name, user_count: userIds.length },
      ...userIds.filter((id) => !before.includes(id)).map((id) => ({ sub_event_type: 'OWNER_USER_ADDED', owner_id: row.id, user_id: id })),
      ...before.filter((id) => !userIds.includes(id)).map((id) => ({ sub_event_type: 'OWNER_USER_REMOVED', owner_id: row.id, user_id: id })),
    ]);
    return ownerUsers(ctx, ownerId);
  }).immediate();
}
