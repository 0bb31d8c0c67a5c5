// Use cases that write groups: reference checks, then one transaction with the audit event.
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Actor } from '../events/store.ts';
import { deleteWithEdges, reconcileSessions } from '../access/service.ts';
import { replaceAccessLevels } from '../access/levels.ts';
import { newItemPlace, reviseItems, updateItems, type ItemRevision } from '../items/service.ts';
import { applyRequestSettings, checkRequestSettingReferences, refuseIfNamedInConfigurations } from '../request-settings/service.ts';
import { DEFAULT_REQUEST_SETTINGS } from '../request-settings/columns.ts';
import { checkMetadata, checkRemoteInfo, remoteIdOf } from '../items/kinds.ts';
import { applyTemplateLinks, templateGroupWrite } from '../configuration-templates/linking.ts';
import { GROUP_METADATA_KINDS, GROUP_REMOTE_ID_FIELDS, GROUP_REMOTE_INFO_KINDS } from './kinds.ts';
import { refuseIfBound } from '../group-bindings/service.ts';
import type { CreateGroupInput, UpdateGroupInput } from './schemas.ts';
import { stateFromRow, type GroupState, type ApiGroup } from './mappers.ts';

/** Throws not_found naming `${path}.N` for the first leader that is not a user. */
function checkLeaders(ctx: AppContext, userIds: string[], path: string): void {
  userIds.forEach((id, index) => {
    if (!ctx.stores.users.exists(id)) throw notFound('user', id, `${path}.${index}`);
  });
}

/**
 * Creates a group (its owner defaults to its app's owner) with its leaders, and records GROUPS_CREATED.
 * Nothing is created in a remote system: without remote_info the group exists in Gatehouse only.
 * Throws validation_failed for bad metadata, remote_info or settings; not_found naming app_id,
 * admin_owner_id, group_leader_user_ids.N or a request configuration's reference.
 */
export function createGroup(ctx: AppContext, actor: Actor, input: CreateGroupInput): ApiGroup {
  const { groups, events } = ctx.stores;
  if (input.metadata !== undefined) checkMetadata(input.metadata, GROUP_METADATA_KINDS, input.group_type, 'metadata');
  if (input.remote_info !== undefined) checkRemoteInfo(input.remote_info, GROUP_REMOTE_INFO_KINDS, input.group_type, 'remote_info');
  const settings = applyRequestSettings(DEFAULT_REQUEST_SETTINGS, input);
  return ctx.db.transaction(() => {
    const { appId, ownerId } = newItemPlace(ctx, input);
    checkLeaders(ctx, input.group_leader_user_ids, 'group_leader_user_ids');
    checkRequestSettingReferences(ctx, settings, input);
    const state: GroupState = {
      app_id: appId,
      name: input.name,
      description: input.description,
      admin_owner_id: ownerId,
      group_type: input.group_type,
      // remote_info replaces the deprecated remote_group_id; an explicit one still wins.
      remote_id: input.remote_group_id ?? (input.remote_info ? remoteIdOf(input.remote_info, GROUP_REMOTE_INFO_KINDS, GROUP_REMOTE_ID_FIELDS) : null),
      remote_name: null,
      remote_info: input.remote_info ?? null,
      metadata: input.metadata ?? null,
      settings,
    };
    const linked = templateGroupWrite(ctx, state, input, '');
    const id = groups.create(linked.state, ctx.clock.now());
    groups.setLeaders(id, input.group_leader_user_ids);
    if (input.access_levels) replaceAccessLevels(ctx, 'group', id, input.access_levels, 'access_levels');
    events.record(actor, 'GROUPS_CREATED', [
      {
        sub_event_type: 'GROUPS_CREATED', group_id: id, group_name: state.name, group_type: state.group_type, app_id: appId,
        admin_owner_id: linked.state.admin_owner_id, ...(linked.template && { configuration_template_id: linked.template.id }),
      },
    ]);
    // After the creation event, so the trail tells the item's creation before what its template gave it.
    if (linked.template) applyTemplateLinks(ctx, actor, 'group', id, linked.template);
    return groups.get(id)!;
  }).immediate();
}

/**
 * Updates several groups, all or nothing, and records one GROUPS_UPDATED with a sub-event each.
 * Throws (naming `groups.N.field`) validation_failed for a group listed twice or bad settings;
 * not_found for an unknown group, owner, leader or request configuration reference.
 */
export function updateGroups(ctx: AppContext, actor: Actor, items: UpdateGroupInput[]) {
  const { groups } = ctx.stores;
  return updateItems(ctx, actor, {
    kind: 'group',
    eventType: 'GROUPS_UPDATED',
    idOf: (item) => item.group_id,
    getRow: groups.getRow,
    stateFromRow,
    ownFields(_id, item, _state, path) {
      if (item.group_leader_user_ids) checkLeaders(ctx, item.group_leader_user_ids, `${path}group_leader_user_ids`);
      return { fields: {} };
    },
    templateWrite: (next, item, path) => templateGroupWrite(ctx, next, item, path),
    write: groups.update,
    afterWrite: (id, item) => {
      if (item.group_leader_user_ids) groups.setLeaders(id, item.group_leader_user_ids);
    },
    get: (id) => groups.get(id)!,
  }, items);
}

/** Throws conflict naming `group_id` while an owner takes its users from the group. */
function refuseIfOwnersSource(ctx: AppContext, groupId: string): void {
  const owner = ctx.stores.owners.withSourceGroup(groupId);
  if (owner === undefined) return;
  throw new AppError('conflict', `group ${groupId} is the source of owner ${owner.id}'s users ("${owner.name}"); clear that owner's source_group_id first`, [
    { path: 'group_id', message: `is the source group of owner ${owner.id}` },
  ]);
}

/**
 * Deletes a group and records GROUPS_DELETED; its leaders, tags, bundle items and access go with it.
 * Throws not_found for an unknown id, conflict while a request configuration names it or it belongs
 * to a group binding or is the source of an owner's users.
 */
export function deleteGroup(ctx: AppContext, actor: Actor, id: string): void {
  const { groups, events } = ctx.stores;
  ctx.db.transaction(() => {
    const row = groups.getRow(id);
    if (!row) throw notFound('group', id);
    refuseIfNamedInConfigurations(ctx, 'group', id, 'group_id');
    refuseIfBound(ctx, id, 'group_id');
    refuseIfOwnersSource(ctx, id);
    const now = ctx.clock.now();
    const removed = deleteWithEdges(ctx, actor, 'group', id, () => groups.delete(id));
    // Its memberships and grants went with it: sessions that relied on them end now.
    const ended = reconcileSessions(ctx, {}, now);
    events.record(actor, 'GROUPS_DELETED', [{ sub_event_type: 'GROUPS_DELETED', group_id: id, group_name: row.name, app_id: row.app_id }, ...removed, ...ended]);
  }).immediate();
}

/** A group's stored state (what its writes start from), or undefined for an unknown id. */
export function groupState(ctx: AppContext, id: string): GroupState | undefined {
  const row = ctx.stores.groups.getRow(id);
  return row && stateFromRow(row);
}

/**
 * Writes groups another area's act changes (reviewer stages, a configuration template) and records one
 * GROUPS_UPDATED with a sub-event each, as PUT /v1/groups does. Inside the caller's transaction.
 */
export function reviseGroups(ctx: AppContext, actor: Actor, revisions: ItemRevision<GroupState>[]): void {
  reviseItems(ctx, actor, { kind: 'group', eventType: 'GROUPS_UPDATED', write: ctx.stores.groups.update }, revisions);
}

/** What an access rule's group is made of: the rest is the default of a group without settings. */
export interface RuleGroupFields {
  app_id: string;
  name: string;
  description: string;
  admin_owner_id: string;
}

/**
 * Creates the group an access rule is (type OPAL_ACCESS_RULE, default request settings) and records
 * GROUPS_CREATED as createGroup does, inside the rule's transaction (the caller checked the owner).
 * Returns the group's id, which is the rule's.
 */
export function createRuleGroup(ctx: AppContext, actor: Actor, fields: RuleGroupFields): string {
  const id = ctx.stores.groups.create({
    ...fields, group_type: 'OPAL_ACCESS_RULE', remote_id: null, remote_name: null, remote_info: null, metadata: null, settings: DEFAULT_REQUEST_SETTINGS,
  }, ctx.clock.now());
  ctx.stores.events.record(actor, 'GROUPS_CREATED', [
    { sub_event_type: 'GROUPS_CREATED', group_id: id, group_name: fields.name, group_type: 'OPAL_ACCESS_RULE', app_id: fields.app_id, admin_owner_id: fields.admin_owner_id },
  ]);
  return id;
}

/**
 * Renames, re-describes or re-owns an access rule's group and records GROUPS_UPDATED (reviseGroups),
 * inside the rule's transaction. The caller checked that the group exists.
 */
export function updateRuleGroup(ctx: AppContext, actor: Actor, id: string, fields: Omit<RuleGroupFields, 'app_id'>): void {
  reviseGroups(ctx, actor, [{ id, state: { ...groupState(ctx, id)!, ...fields }, updatedFields: 'name,description,admin_owner_id' }]);
}
