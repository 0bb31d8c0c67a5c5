// Use cases that write group bindings: shape and reference checks, then one transaction with the audit event.
import type { AppContext } from '../../context.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import type { Actor, SubEvent } from '../events/store.ts';
import type { CreateGroupBindingInput, UpdateGroupBindingInput } from './schemas.ts';
import type { ApiGroupBinding } from './mappers.ts';

type BindingShape = Pick<CreateGroupBindingInput, 'source_group_id' | 'groups'>;

/** 400 for a group listed twice or a source group that is not one of the binding's groups. `path` ends in '.' or is ''. */
function checkShape(input: BindingShape, path: string): string[] {
  const ids = input.groups.map((g) => g.group_id);
  ids.forEach((id, index) => {
    if (ids.indexOf(id) !== index) throw invalidField(`${path}groups.${index}.group_id`, 'lists a group a second time');
  });
  // The reference's examples always list the source among the groups: it is the binding's group of record.
  if (!ids.includes(input.source_group_id)) throw invalidField(`${path}source_group_id`, 'must be one of the groups listed in groups');
  return ids;
}

/** 404 naming `${path}groups.N.group_id` for the first group that does not exist. */
function checkGroupsExist(ctx: AppContext, ids: string[], path: string): void {
  ids.forEach((id, index) => {
    if (!ctx.stores.groups.exists(id)) throw notFound('group', id, `${path}groups.${index}.group_id`);
  });
}

const alreadyBound = (groupId: string, bindingId: string, path: string) =>
  new AppError('conflict', `group ${groupId} already belongs to group binding ${bindingId}; a group belongs to at most one binding`, [
    { path, message: `already belongs to group binding ${bindingId}` },
  ]);

const groupSubEvents = (type: string, bindingId: string, groupIds: string[]): SubEvent[] =>
  groupIds.map((groupId) => ({ sub_event_type: type, group_binding_id: bindingId, group_id: groupId }));

/**
 * Creates a binding of the listed groups (in that order) and records GROUP_BINDINGS_CREATED, with a
 * GROUP_BINDING_GROUPS_ADDED sub-event per group. Throws validation_failed for a group listed twice or a
 * source group not among the groups; not_found naming `groups.N.group_id`; conflict naming
 * `groups.N.group_id` for a group already in a binding.
 */
export function createGroupBinding(ctx: AppContext, actor: Actor, input: CreateGroupBindingInput): ApiGroupBinding {
  const { groupBindings, events } = ctx.stores;
  const ids = checkShape(input, '');
  return ctx.db.transaction(() => {
    checkGroupsExist(ctx, ids, '');
    ids.forEach((id, index) => {
      const bound = groupBindings.bindingOf(id);
      if (bound !== undefined) throw alreadyBound(id, bound, `groups.${index}.group_id`);
    });
    const bindingId = groupBindings.create(input.source_group_id, actor.userId, ctx.clock.now());
    groupBindings.addGroups(bindingId, ids);
    events.record(actor, 'GROUP_BINDINGS_CREATED', [
      { sub_event_type: 'GROUP_BINDINGS_CREATED', group_binding_id: bindingId, source_group_id: input.source_group_id },
      ...groupSubEvents('GROUP_BINDING_GROUPS_ADDED', bindingId, ids),
    ]);
    return groupBindings.get(bindingId)!;
  }).immediate();
}

/**
 * Replaces the source and groups of several bindings, all or nothing, and records one
 * GROUP_BINDINGS_UPDATED with a sub-event per binding and per group that joined or left one.
 * Groups may move between bindings listed in the same call: only the end state must give each
 * group at most one binding. Throws (naming `group_bindings.N.…`) validation_failed for a binding
 * listed twice or a bad shape, not_found for an unknown binding or group, conflict for a group
 * that would be in two bindings.
 */
export function updateGroupBindings(ctx: AppContext, actor: Actor, items: UpdateGroupBindingInput[]): ApiGroupBinding[] {
  const { groupBindings, events } = ctx.stores;
  const planned = items.map((item, index) => {
    const path = `group_bindings.${index}.`;
    if (items.findIndex((other) => other.group_binding_id === item.group_binding_id) !== index) {
      throw invalidField(`${path}group_binding_id`, 'lists a group binding a second time');
    }
    return { id: item.group_binding_id, source: item.source_group_id, ids: checkShape(item, path), path };
  });
  return ctx.db.transaction(() => {
    const before = new Map<string, ApiGroupBinding>();
    for (const { id, ids, path } of planned) {
      const current = groupBindings.get(id);
      if (!current) throw notFound('group binding', id, `${path}group_binding_id`);
      before.set(id, current);
      checkGroupsExist(ctx, ids, path);
    }
    // The end state: every listed group in its listed binding, every other bound group where it is.
    const claimedBy = new Map<string, string>();
    for (const { id, ids, path } of planned) {
      ids.forEach((groupId, index) => {
        const groupPath = `${path}groups.${index}.group_id`;
        const claimed = claimedBy.get(groupId);
        if (claimed !== undefined) throw alreadyBound(groupId, claimed, groupPath);
        const bound = groupBindings.bindingOf(groupId);
        if (bound !== undefined && !before.has(bound)) throw alreadyBound(groupId, bound, groupPath);
        claimedBy.set(groupId, id);
      });
    }
    const at = ctx.clock.now();
    // Clear every listed binding before filling any, so a group can move from one to another.
    for (const { id } of planned) groupBindings.clearGroups(id);
    const subEvents: SubEvent[] = [];
    for (const { id, source, ids } of planned) {
      groupBindings.setSource(id, source, at);
      groupBindings.addGroups(id, ids);
      const old = before.get(id)!.groups.map((g) => g.group_id);
      subEvents.push(
        { sub_event_type: 'GROUP_BINDINGS_UPDATED', group_binding_id: id, source_group_id: source },
        ...groupSubEvents('GROUP_BINDING_GROUPS_ADDED', id, ids.filter((g) => !old.includes(g))),
        ...groupSubEvents('GROUP_BINDING_GROUPS_REMOVED', id, old.filter((g) => !ids.includes(g))),
      );
    }
    if (planned.length > 0) events.record(actor, 'GROUP_BINDINGS_UPDATED', subEvents);
    return planned.map(({ id }) => groupBindings.get(id)!);
  }).immediate();
}

/**
 * Deletes a binding (its groups stay, unbound) and records GROUP_BINDINGS_DELETED with a
 * GROUP_BINDING_GROUPS_REMOVED sub-event per group. Throws not_found for an unknown id.
 */
export function deleteGroupBinding(ctx: AppContext, actor: Actor, id: string): void {
  const { groupBindings, events } = ctx.stores;
  ctx.db.transaction(() => {
    const binding = groupBindings.get(id);
    if (!binding) throw notFound('group binding', id, 'group_binding_id');
    groupBindings.delete(id);
    events.record(actor, 'GROUP_BINDINGS_DELETED', [
      { sub_event_type: 'GROUP_BINDINGS_DELETED', group_binding_id: id, source_group_id: binding.source_group_id },
      ...groupSubEvents('GROUP_BINDING_GROUPS_REMOVED', id, binding.groups.map((g) => g.group_id)),
    ]);
  }).immediate();
}

/**
 * Throws conflict naming `path` while `groupId` belongs to a binding. Deleting a group is refused
 * rather than shrinking the binding under its owners' feet (or leaving it without its source group).
 */
export function refuseIfBound(ctx: AppContext, groupId: string, path: string): void {
  const bound = ctx.stores.groupBindings.bindingOf(groupId);
  if (bound === undefined) return;
  throw new AppError('conflict', `group ${groupId} belongs to group binding ${bound}; remove it from the binding or delete the binding first`, [
    { path, message: `belongs to group binding ${bound}` },
  ]);
}
