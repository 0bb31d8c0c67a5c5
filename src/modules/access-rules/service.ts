// Access rules: create and update them, and keep every ACTIVE rule's members equal to the users its
// clauses select, inside the same transaction as whatever changed (a tag, a user's status, the rule).
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import type { Actor } from '../events/store.ts';
import { createApp } from '../apps/service.ts';
import { createRuleGroup, updateRuleGroup } from '../groups/service.ts';
import { inWriteTransaction, writeGrant } from '../access/service.ts';
import { changeAccess } from '../access/changes.ts';
import type { AccessRuleInput, RuleClausesInput } from './schemas.ts';
import type { RuleRow } from './store.ts';
import { toApiAccessRule } from './mappers.ts';

/** Users satisfying every clause of a conjunction (a clause: any of its selectors' tags). */
function satisfying(ctx: AppContext, clauses: RuleClausesInput['when']['clauses']): Set<string> {
  let result: Set<string> | undefined;
  for (const clause of clauses) {
    const any = new Set(clause.selectors.flatMap((s) => ctx.stores.accessRules.usersTagged(s.key, s.value)));
    result = result === undefined ? any : new Set([...result].filter((id) => any.has(id)));
    if (result.size === 0) break;
  }
  return result ?? new Set();
}

/** The users a rule's clauses select now: `when` holds and `unless` (if given) does not. */
export function selectedUsers(ctx: AppContext, clauses: RuleClausesInput): Set<string> {
  const chosen = satisfying(ctx, clauses.when.clauses);
  if (clauses.unless) for (const id of satisfying(ctx, clauses.unless.clauses)) chosen.delete(id);
  return chosen;
}

/**
 * Brings one ACTIVE rule's members in line with its clauses: adds (GROUP_USERS_ADDED, source RULE)
 * and removes (GROUP_USERS_REMOVED, with any sessions that ends). Call inside the changing transaction.
 */
function syncRule(ctx: AppContext, actor: Actor, rule: RuleRow, now: Date): void {
  const { accessRules } = ctx.stores;
  const wanted = selectedUsers(ctx, JSON.parse(rule.rule_clauses) as RuleClausesInput);
  const leaving = accessRules.members(rule.group_id).filter((userId) => !wanted.delete(userId));
  changeAccess(ctx, actor, leaving.map((userId) => ({
    op: 'remove' as const, kind: 'group_user' as const, key: { principalId: userId, itemId: rule.group_id, level: '' },
  })), { record: 'GROUP_USERS_REMOVED', at: now, cause: { type: 'ACCESS_RULE' } });
  for (const userId of [...wanted].sort()) {
    writeGrant(ctx, actor, {
      kind: 'group_user', key: { principalId: userId, itemId: rule.group_id, level: '' }, expiresAt: null, source: 'RULE', sourceId: rule.group_id, whenHeld: 'extend',
    });
  }
}

/** Re-evaluates every ACTIVE rule; PAUSED rules keep their members. Call inside the changing transaction. */
export function syncActiveRules(ctx: AppContext, actor: Actor, now: Date): void {
  for (const rule of ctx.stores.accessRules.active()) syncRule(ctx, actor, rule, now);
}

/**
 * The app rule groups belong to: the first OPAL app, made (owned by `ownerId`, recording APPS_CREATED
 * through the apps service) when there is none.
 */
function ruleAppId(ctx: AppContext, actor: Actor, ownerId: string): string {
  return ctx.stores.accessRules.opalAppId()
    ?? createApp(ctx, actor, { name: 'Gatehouse', description: 'Holds the groups of access rules.', app_type: 'OPAL', admin_owner_id: ownerId }).app_id;
}

/**
 * Creates an access rule — a group of type OPAL_ACCESS_RULE, made and recorded (GROUPS_CREATED) by the
 * groups service, in an app the apps service makes (APPS_CREATED) when none holds rule groups yet —
 * records ACCESS_RULES_CREATED and, when ACTIVE, makes the users it selects members. Throws not_found
 * (admin_owner_id) for an unknown owner.
 */
export function createAccessRule(ctx: AppContext, actor: Actor, input: AccessRuleInput) {
  const { owners, accessRules, events } = ctx.stores;
  const now = ctx.clock.now();
  return inWriteTransaction(ctx, () => {
    const ownerId = input.admin_owner_id.toLowerCase();
    if (!owners.exists(ownerId)) throw notFound('owner', ownerId, 'admin_owner_id');
    const groupId = createRuleGroup(ctx, actor, {
      app_id: ruleAppId(ctx, actor, ownerId), name: input.name, description: input.description, admin_owner_id: ownerId,
    });
    accessRules.create(groupId, input.status, input.ruleClauses, now);
    events.record(actor, 'ACCESS_RULES_CREATED', [
      { sub_event_type: 'ACCESS_RULES_CREATED', access_rule_id: groupId, group_id: groupId, access_rule_name: input.name, status: input.status },
    ]);
    const rule = accessRules.get(groupId)!;
    if (rule.status === 'ACTIVE') syncRule(ctx, actor, rule, now);
    return toApiAccessRule(rule);
  });
}

/**
 * Replaces a rule's name, description, owner, status and clauses; records ACCESS_RULES_UPDATED (and
 * GROUPS_UPDATED, by the groups service, for its group's name, description and owner) and, when
 * ACTIVE, re-evaluates its members. Throws not_found for an unknown rule or owner.
 */
export function updateAccessRule(ctx: AppContext, actor: Actor, ruleId: string, input: AccessRuleInput) {
  const { groups, owners, accessRules, events } = ctx.stores;
  const now = ctx.clock.now();
  return inWriteTransaction(ctx, () => {
    if (!accessRules.get(ruleId) || !groups.exists(ruleId)) throw notFound('access rule', ruleId, 'access_rule_id');
    const ownerId = input.admin_owner_id.toLowerCase();
    if (!owners.exists(ownerId)) throw notFound('owner', ownerId, 'admin_owner_id');
    updateRuleGroup(ctx, actor, ruleId, { name: input.name, description: input.description, admin_owner_id: ownerId });
    accessRules.update(ruleId, input.status, input.ruleClauses, now);
    events.record(actor, 'ACCESS_RULES_UPDATED', [
      { sub_event_type: 'ACCESS_RULES_UPDATED', access_rule_id: ruleId, group_id: ruleId, access_rule_name: input.name, status: input.status },
    ]);
    const rule = accessRules.get(ruleId)!;
    if (rule.status === 'ACTIVE') syncRule(ctx, actor, rule, now);
    return toApiAccessRule(rule);
  });
}
