// Use cases that write tags: each change and its audit event commit together.
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Actor, SubEvent } from '../events/store.ts';
import { syncActiveRules } from '../access-rules/service.ts';
import { TAG_TARGETS, type TagTarget } from './store.ts';
import type { ApiTag } from './mappers.ts';

export interface CreateTagInput {
  key: string;
  value: string;
  adminOwnerId: string | null;
}

/**
 * Creates a tag owned by the caller and records TAGS_CREATED.
 * Throws not_found (admin_owner_id) for an unknown owner, conflict when the key and value are taken.
 */
export function createTag(ctx: AppContext, actor: Actor, input: CreateTagInput): ApiTag {
  const { tags, owners, events } = ctx.stores;
  return ctx.db.transaction(() => {
    if (input.adminOwnerId !== null && !owners.exists(input.adminOwnerId)) throw notFound('owner', input.adminOwnerId, 'admin_owner_id');
    if (tags.getByKeyValue(input.key, input.value)) {
      throw new AppError('conflict', `a tag with key "${input.key}" and value "${input.value}" already exists`, [
        { path: 'tag_key', message: 'a tag with this key and value already exists' },
      ]);
    }
    const tag = tags.create({ key: input.key, value: input.value, user_creator_id: actor.userId, admin_owner_id: input.adminOwnerId }, ctx.clock.now());
    events.record(actor, 'TAGS_CREATED', [
      { sub_event_type: 'TAGS_CREATED', tag_id: tag.tag_id, tag_key: tag.key, tag_value: tag.value, admin_owner_id: input.adminOwnerId },
    ]);
    return tag;
  }).immediate();
}

/**
 * Deletes a tag, detaching it from everything, and records one TAGS_DELETED event: its first sub-event
 * names the tag, then one ENTITY_TAG_REMOVED sub-event per user, group and resource it was detached from.
 * Throws not_found (tag_id) for an unknown tag.
 */
export function deleteTag(ctx: AppContext, actor: Actor, tagId: string): void {
  const { tags, events } = ctx.stores;
  ctx.db.transaction(() => {
    const tag = tags.get(tagId);
    if (!tag) throw notFound('tag', tagId, 'tag_id');
    const detached: SubEvent[] = (Object.keys(TAG_TARGETS) as TagTarget[]).flatMap((kind) =>
      tags.targetsOf(kind, tagId).map((id) => ({ sub_event_type: 'ENTITY_TAG_REMOVED', tag_id: tagId, [TAG_TARGETS[kind].column]: id })),
    );
    tags.delete(tagId);
    events.record(actor, 'TAGS_DELETED', [
      { sub_event_type: 'TAGS_DELETED', tag_id: tagId, tag_key: tag.key, tag_value: tag.value },
      ...detached,
    ]);
    // Access rules select users by tag: their members change with the tag, in this transaction.
    if (detached.some((sub) => 'user_id' in sub)) syncActiveRules(ctx, actor, ctx.clock.now());
  }).immediate();
}

/** Throws not_found naming the path parameter when the user, group or resource does not exist. */
function assertTargetExists(ctx: AppContext, kind: TagTarget, id: string): void {
  const { users, groups, resources } = ctx.stores;
  const exists = kind === 'user' ? users.exists(id) : kind === 'group' ? groups.exists(id) : resources.exists(id);
  if (!exists) throw notFound(kind, id, TAG_TARGETS[kind].column);
}

function requireTag(ctx: AppContext, tagId: string): ApiTag {
  const tag = ctx.stores.tags.get(tagId);
  if (!tag) throw notFound('tag', tagId, 'tag_id');
  return tag;
}

function tagSubEvent(type: string, tag: ApiTag, kind: TagTarget, targetId: string): SubEvent {
  return { sub_event_type: type, tag_id: tag.tag_id, tag_key: tag.key, tag_value: tag.value, [TAG_TARGETS[kind].column]: targetId };
}

/**
 * Attaches a tag to a user, group or resource and records ENTITY_TAG_ADDED.
 * Attaching what is already attached changes nothing and records nothing.
 * Throws not_found (tag_id, or user_id / group_id / resource_id) for an unknown tag or target.
 */
export function attachTag(ctx: AppContext, actor: Actor, tagId: string, kind: TagTarget, targetId: string): void {
  const { tags, events } = ctx.stores;
  ctx.db.transaction(() => {
    const tag = requireTag(ctx, tagId);
    assertTargetExists(ctx, kind, targetId);
    if (!tags.attach(kind, tagId, targetId)) return;
    events.record(actor, 'ENTITY_TAG_ADDED', [tagSubEvent('ENTITY_TAG_ADDED', tag, kind, targetId)]);
    if (kind === 'user') syncActiveRules(ctx, actor, ctx.clock.now());
  }).immediate();
}

/**
 * Detaches a tag from a user, group or resource and records ENTITY_TAG_REMOVED.
 * Detaching what is not attached is an empty success that records nothing.
 * Throws not_found (tag_id, or user_id / group_id / resource_id) for an unknown tag or target.
 */
export function detachTag(ctx: AppContext, actor: Actor, tagId: string, kind: TagTarget, targetId: string): void {
  const { tags, events } = ctx.stores;
  ctx.db.transaction(() => {
    const tag = requireTag(ctx, tagId);
    assertTargetExists(ctx, kind, targetId);
    if (!tags.detach(kind, tagId, targetId)) return;
    events.record(actor, 'ENTITY_TAG_REMOVED', [tagSubEvent('ENTITY_TAG_REMOVED', tag, kind, targetId)]);
    if (kind === 'user') syncActiveRules(ctx, actor, ctx.clock.now());
  }).immediate();
}

/** The tags attached to one user, group or resource; throws not_found for an unknown one. */
export function tagsOf(ctx: AppContext, kind: TagTarget, targetId: string): ApiTag[] {
  assertTargetExists(ctx, kind, targetId);
  return ctx.stores.tags.tagsOf(kind, targetId);
}
