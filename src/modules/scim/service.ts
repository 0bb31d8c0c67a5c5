// What provisioning does (docs/scim.md): a SCIM user is a Gatehouse user, a SCIM group a group of the
// identity provider's app whose user members follow the provider. Every write goes through the owning
// area's service (users, groups, owners, apps, access), in one transaction with its audit events.
import * as v from 'valibot';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { isUuid } from '../../lib/ids.ts';
import type { Actor } from '../events/store.ts';
import { createUser, updateUser, changeUserEmail, isServiceUser } from '../users/service.ts';
import { announce } from '../../signals.ts';
import { createGroup, deleteGroup, updateGroups } from '../groups/service.ts';
import { CreateGroupBody } from '../groups/schemas.ts';
import { createOwner } from '../owners/service.ts';
import { CreateOwnerBody } from '../owners/schemas.ts';
import { createApp } from '../apps/service.ts';
import { groupMembers, setGroupMembers } from '../access/service.ts';
import { invalidValue, ScimProblem } from './errors.ts';
import { ENTERPRISE_SCHEMA, MAX_MEMBER_CHANGES } from './resources.ts';
import { isEmail, type PatchInput, type ScimGroupInput, type ScimUserInput } from './schemas.ts';
import { applyGroupPatch, checkPatchBounds } from './group-patch.ts';
import type { ScimGroupRow, ScimUserRow } from './store.ts';

/** Status by SCIM's word: `active: false` deprovisions (reversible), DELETE deletes (gone from SCIM). */
export const DEACTIVATED_STATUS = 'DEPROVISIONED';
export const DELETED_STATUS = 'DELETED';

/** The app and group type a provider's groups are made with (GATEHOUSE_SCIM_IDP). */
const PROVIDER_KINDS = {
  okta: { app: 'Okta', appType: 'OKTA_DIRECTORY', groupType: 'OKTA_GROUP' },
  entra: { app: 'Microsoft Entra ID', appType: 'AZURE_AD', groupType: 'AZURE_AD_SECURITY_GROUP' },
  other: { app: 'Identity provider', appType: 'CUSTOM', groupType: 'CONNECTOR_GROUP' },
} as const;

const write = <T>(ctx: AppContext, fn: () => T): T => ctx.db.transaction(fn).immediate();

/** Why the provider may not rename, offboard or delete `user`, or null when it may (a member). */
function outOfReach(ctx: AppContext, user: { id: string }): string | null {
  const person = ctx.stores.users.get(user.id);
  if (!person) return null;
  if (person.organization_role === 'ADMIN') return 'they are an ADMIN, whom only another admin offboards or renames (in the console or /v1)';
  if (isServiceUser(person)) return 'they are a service user (a record for a script or system), which no identity provider manages';
  return null;
}

/**
 * Refuses (403, SCIM's shape) a rename, offboarding or deletion of someone out of the provider's reach
 * (an admin, a service user). An offboarding refused is told to the other admins first, in a
 * transaction of its own that commits before the refusal, so they can offboard the person themselves.
 */
function refuseOutOfReach(ctx: AppContext, row: ScimUserRow, change: { rename: boolean; status: string | null }): void {
  if (!change.rename && change.status === null) return;
  const why = outOfReach(ctx, row);
  if (why === null) return;
  if (change.status !== null) write(ctx, () => announce(ctx, 'scim.offboarding-refused', { userId: row.id, status: change.status!, why }, ctx.clock.now()));
  const what = change.status !== null ? `make them ${change.status}` : 'change their userName';
  throw new ScimProblem('forbidden', undefined, `the identity provider may not ${what}: ${why}`);
}

/**
 * The person's email from what the provider sent (issue 37.4): the primary entry of `emails`, else its
 * work entry, else the userName when it is an email, else the first entry. Throws invalidValue naming
 * the entry (or `emails` when there is none at all) when that is no email address.
 */
function emailOf(input: ScimUserInput): { email: string; path: string } {
  const emails = input.emails ?? [];
  const at = (i: number) => ({ email: emails[i]!.value, path: `emails.${i}.value` });
  const primary = emails.findIndex((e) => e.primary === true);
  const work = emails.findIndex((e) => e.type?.toLowerCase() === 'work');
  const chosen = primary >= 0 ? at(primary) : work >= 0 ? at(work) : isEmail(input.userName) ? { email: input.userName, path: 'userName' } : emails.length > 0 ? at(0) : null;
  if (chosen === null) throw invalidValue('emails', 'is needed: Gatehouse knows people by their email, and the userName is not one (send the person\'s email in emails, primary or work)');
  if (!isEmail(chosen.email)) throw invalidValue(chosen.path, 'must be an email address');
  return chosen;
}

/** The emails to keep as sent, or null when they say no more than the email alone (work, primary). */
function keptEmails(input: ScimUserInput, email: string): string | null {
  const emails = input.emails ?? [];
  const plain = emails.length === 0 || (emails.length === 1 && emails[0]!.value.toLowerCase() === email.toLowerCase() && emails[0]!.primary !== false
    && (emails[0]!.type ?? 'work').toLowerCase() === 'work' && emails[0]!.display == null);
  if (plain) return null;
  return JSON.stringify(emails.map((e) => ({ value: e.value, ...(e.type != null && { type: e.type }), ...(e.primary != null && { primary: e.primary }), ...(e.display != null && { display: e.display }) })));
}

/**
 * The Gatehouse user a provider's manager value names: their id (what Entra ID sends, once it provisioned
 * the manager), else their userName or email (what an Okta mapping of managerId often holds); null for a
 * value naming nobody here — a manager the provider has not provisioned (yet), or its own id for them —
 * which leaves the person without a manager rather than refusing them (docs/scim.md).
 */
function managerOf(ctx: AppContext, value: string): string | null {
  if (value === '') return null;
  if (isUuid(value) && ctx.stores.scim.user(value.toLowerCase())) return value.toLowerCase();
  return ctx.stores.scim.userByUserName(value)?.id ?? null;
}

/** The user fields a SCIM user gives, Gatehouse's spelling; `manager_id` a user Gatehouse has, or none. */
function userFields(ctx: AppContext, input: ScimUserInput, selfId: string | null) {
  const enterprise = input[ENTERPRISE_SCHEMA] ?? null;
  const given = input.name?.givenName?.trim() ?? '';
  const family = input.name?.familyName?.trim() ?? '';
  const full = (input.displayName?.trim() || input.name?.formatted?.trim() || `${given} ${family}`.trim() || input.userName).replace(/[\u0000-\u001f\u007f]+/g, ' ');
  const rawManager = enterprise?.manager;
  const managerId = managerOf(ctx, (typeof rawManager === 'string' ? rawManager : rawManager?.value ?? '').trim());
  if (managerId !== null && managerId === selfId) throw invalidValue(`${ENTERPRISE_SCHEMA}:manager`, 'must not be the user themselves');
  const { email, path: emailPath } = emailOf(input);
  return {
    email,
    emailPath,
    full_name: full.slice(0, 200),
    first_name: given.slice(0, 100),
    last_name: family.slice(0, 100),
    position: input.title?.trim() ?? '',
    manager_id: managerId,
    scim: {
      // Kept only when it is not the email itself: a user's userName then follows their email.
      userName: input.userName.toLowerCase() === email.toLowerCase() ? null : input.userName,
      emails: keptEmails(input, email),
      displayName: input.displayName?.trim() || null,
      externalId: input.externalId ?? null, department: enterprise?.department ?? null, employeeNumber: enterprise?.employeeNumber ?? null,
    },
  };
}

/** Conflict (uniqueness) naming `path` when `userName` is another user's (a provider's userName, or a user's email it gave none). */
function checkUserNameFree(ctx: AppContext, userName: string, selfId: string): void {
  const holder = ctx.stores.scim.userByUserName(userName);
  if (holder && holder.id !== selfId) throw new ScimProblem('conflict', 'uniqueness', `userName: a user with userName ${userName} already exists`, [{ path: 'userName', message: 'already in use' }]);
}

/** Conflict (uniqueness) when the email is another user's. */
function checkEmailFree(ctx: AppContext, email: string, path: string, selfId: string | null): void {
  const holder = ctx.stores.users.getByEmail(email);
  if (holder && holder.user_id !== selfId) throw new ScimProblem('conflict', 'uniqueness', `${path}: another user has the email ${email}`, [{ path, message: 'already in use' }]);
}

/**
 * Creates the user (MEMBER) — or, when a user with the userName was DELETED, brings that user back
 * with what the provider sent (their old access stays gone) — and records USERS_CREATED/UPDATED.
 * Throws conflict (uniqueness) when a user not deleted has the userName, or another has the email.
 */
export function provisionUser(ctx: AppContext, actor: Actor, input: ScimUserInput): ScimUserRow {
  const now = ctx.clock.now();
  return write(ctx, () => {
    const named = ctx.stores.scim.userByUserName(input.userName);
    if (named && named.hr_idp_status !== DELETED_STATUS) {
      throw new ScimProblem('conflict', 'uniqueness', `userName: a user with userName ${input.userName} already exists (id ${named.id})`, [{ path: 'userName', message: 'already in use' }]);
    }
    // A DELETED person comes back by their userName, or by their email under a new userName (a provider
    // whose userNames changed, e.g. a UPN renamed): the person, not their old access.
    const existing = named ?? ctx.stores.scim.deletedUserByEmail(emailOf(input).email);
    const fields = userFields(ctx, input, existing?.id ?? null);
    checkEmailFree(ctx, fields.email, fields.emailPath, existing?.id ?? null);
    const status = input.active === false ? DEACTIVATED_STATUS : 'ACTIVE';
    let userId: string;
    if (existing) {
      userId = existing.id;
      if (fields.email !== existing.email) changeUserEmail(ctx, actor, userId, fields.email, fields.emailPath);
      // Whoever comes back is a MEMBER with no access, whatever they were before (docs/scim.md).
      updateUser(ctx, actor, userId, {
        full_name: fields.full_name, first_name: fields.first_name, last_name: fields.last_name, position: fields.position, manager_id: fields.manager_id,
        hr_idp_status: status, organization_role: 'MEMBER',
      });
    } else {
      userId = createUser(ctx, actor, { email: fields.email, full_name: fields.full_name, first_name: fields.first_name, last_name: fields.last_name, position: fields.position, manager_id: fields.manager_id }).user_id;
      if (status !== 'ACTIVE') updateUser(ctx, actor, userId, { hr_idp_status: status });
    }
    ctx.stores.scim.saveUser(userId, fields.scim, now);
    return ctx.stores.scim.user(userId)!;
  });
}

/** The user `id` as SCIM serves it; not_found when there is none or it was DELETED. */
export function scimUser(ctx: AppContext, id: string): ScimUserRow {
  const row = isUuid(id) ? ctx.stores.scim.user(id.toLowerCase()) : undefined;
  if (!row) throw new AppError('not_found', `no User ${id}`);
  return row;
}

/**
 * Makes user `id` what `input` says (PUT, and PATCH once applied): userName, names, title, manager,
 * the enterprise attributes; `active` false offboards them (every access edge ends, here and, through
 * the outbox, in connected systems; sessions and tokens stop), true restores an offboarded person
 * without their old access. An absent `active` leaves it as it is.
 */
export function replaceUser(ctx: AppContext, actor: Actor, id: string, input: ScimUserInput): ScimUserRow {
  const now = ctx.clock.now();
  const statusAfter = (row: ScimUserRow) => {
    const active = row.hr_idp_status === 'ACTIVE';
    return input.active === undefined || input.active === active ? row.hr_idp_status : input.active ? 'ACTIVE' : DEACTIVATED_STATUS;
  };
  // Before the write: a refused offboarding is told to the admins in a transaction that must commit.
  const before = scimUser(ctx, id);
  const leaving = statusAfter(before) !== before.hr_idp_status && statusAfter(before) !== 'ACTIVE' ? statusAfter(before) : null;
  const renames = (row: ScimUserRow, email: string) => input.userName !== (row.user_name ?? row.email) || email !== row.email;
  refuseOutOfReach(ctx, before, { rename: renames(before, emailOf(input).email), status: leaving });
  return write(ctx, () => {
    const row = scimUser(ctx, id);
    const fields = userFields(ctx, input, row.id);
    const status = statusAfter(row);
    checkUserNameFree(ctx, input.userName, row.id);
    if (fields.email !== row.email) {
      checkEmailFree(ctx, fields.email, fields.emailPath, row.id);
      changeUserEmail(ctx, actor, row.id, fields.email, fields.emailPath);
    }
    // Re-activated, a person comes back a MEMBER with no access, whatever role they had (docs/scim.md).
    const revived = status === 'ACTIVE' && row.hr_idp_status !== 'ACTIVE';
    updateUser(ctx, actor, row.id, {
      full_name: fields.full_name, first_name: fields.first_name, last_name: fields.last_name, position: fields.position, manager_id: fields.manager_id,
      ...(status !== row.hr_idp_status && { hr_idp_status: status }),
      ...(revived && { organization_role: 'MEMBER' as const }),
    });
    ctx.stores.scim.saveUser(row.id, fields.scim, now);
    return ctx.stores.scim.user(row.id)!;
  });
}

/** DELETE: the user is offboarded as DELETED and leaves SCIM (a later GET is 404; a POST brings them back). */
export function removeUser(ctx: AppContext, actor: Actor, id: string): void {
  const row = scimUser(ctx, id);
  refuseOutOfReach(ctx, row, { rename: false, status: DELETED_STATUS });
  write(ctx, () => {
    updateUser(ctx, actor, row.id, { hr_idp_status: DELETED_STATUS });
    ctx.stores.scim.touchUser(row.id, ctx.clock.now());
  });
}

/** The provider's app, made on its first group with an owner of its own (APPS_CREATED, OWNERS_CREATED). */
function providerAppId(ctx: AppContext, actor: Actor): { appId: string; groupType: string } {
  const kind = PROVIDER_KINDS[ctx.config.scimIdentityProvider];
  const found = ctx.stores.scim.providerAppId(kind.app, kind.appType);
  if (found) return { appId: found, groupType: kind.groupType };
  const ownerName = `${kind.app} (SCIM)`;
  const ownerId = ctx.stores.scim.ownerIdNamed(ownerName)
    ?? createOwner(ctx, actor, v.parse(CreateOwnerBody, { name: ownerName, description: 'Owns the groups the identity provider pushes over SCIM.', user_ids: [actor.userId] })).owner_id;
  const app = createApp(ctx, actor, { name: kind.app, description: 'Groups pushed by the identity provider over SCIM (docs/scim.md).', app_type: kind.appType, admin_owner_id: ownerId });
  return { appId: app.app_id, groupType: kind.groupType };
}

/** Who may join a group: the users named, minus those not ACTIVE (skipped, and said: docs/scim.md). */
export interface Admitted {
  ids: string[];
  /** Users named who are offboarded: left out rather than failing the whole request (issue 37.2). */
  skipped: string[];
}

/**
 * Sorts the users `named` (id, and the field naming it for an error) into those who may be members and
 * those skipped for being offboarded. Throws invalidValue naming the field for an id that is no user
 * Gatehouse has: that is really wrong, and nothing is applied.
 */
function admit(ctx: AppContext, named: { id: string; path: string }[]): Admitted {
  const ids: string[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  for (const { id, path } of named) {
    if (seen.has(id)) continue;
    seen.add(id);
    const user = isUuid(id) ? ctx.stores.scim.user(id) : undefined;
    if (!user) throw invalidValue(path, `must be the id of a user Gatehouse has (${id.slice(0, 64)} is none)`);
    if (user.hr_idp_status !== 'ACTIVE') skipped.push(id);
    else ids.push(id);
  }
  return { ids, skipped };
}

/** The users a POST's or PUT's members name, as admit() sorts them; a group as a member is refused (no nesting). */
function memberIds(ctx: AppContext, members: ScimGroupInput['members']): Admitted {
  return admit(ctx, (members ?? []).map((member, index) => {
    const path = `members.${index}.value`;
    if (member.type && member.type.toLowerCase() === 'group') throw invalidValue(path, 'is a group: Gatehouse takes users as SCIM group members, not groups');
    return { id: member.value.trim().toLowerCase(), path };
  }));
}

/** Sets the members, refusing more changes at once than MAX_MEMBER_CHANGES (one request must not hold the service). */
function setMembers(ctx: AppContext, actor: Actor, groupId: string, ids: string[], held = new Set(groupMembers(ctx, groupId).map((m) => m.id))): void {
  const wanted = new Set(ids);
  const changes = ids.filter((id) => !held.has(id)).length + [...held].filter((id) => !wanted.has(id)).length;
  if (changes > MAX_MEMBER_CHANGES) {
    throw invalidValue('members', `would change ${changes} memberships at once; send at most ${MAX_MEMBER_CHANGES} changes per request (PATCH add/remove in parts)`);
  }
  if (changes > 0) setGroupMembers(ctx, actor, groupId, ids);
}

/** Says in the log which offboarded users a request named as members and were left out. */
function logSkipped(ctx: AppContext, groupId: string, skipped: string[]): void {
  if (skipped.length > 0) ctx.log.info('SCIM group members skipped: offboarded users hold no membership', { group_id: groupId, user_ids: skipped.slice(0, 100), count: skipped.length });
}

/** POST /Groups: a group of the provider's app, with its members (GROUPS_CREATED, GROUP_USERS_ADDED). Conflict (uniqueness) for a displayName taken. */
export function provisionGroup(ctx: AppContext, actor: Actor, input: ScimGroupInput): ScimGroupRow & { skipped: string[] } {
  const now = ctx.clock.now();
  return write(ctx, () => {
    if (ctx.stores.scim.groupByName(input.displayName)) {
      throw new ScimProblem('conflict', 'uniqueness', `displayName: a group named ${input.displayName} already exists`, [{ path: 'displayName', message: 'already in use' }]);
    }
    const members = memberIds(ctx, input.members);
    const { appId, groupType } = providerAppId(ctx, actor);
    const group = createGroup(ctx, actor, v.parse(CreateGroupBody, { name: input.displayName, group_type: groupType, app_id: appId, description: 'Pushed by the identity provider over SCIM.' }));
    ctx.stores.scim.addGroup(group.group_id, input.externalId ?? null, now);
    setMembers(ctx, actor, group.group_id, members.ids);
    logSkipped(ctx, group.group_id, members.skipped);
    return { ...ctx.stores.scim.group(group.group_id)!, skipped: members.skipped };
  });
}

/** The group `id` as SCIM serves it; not_found unless the provider pushed it. */
export function scimGroup(ctx: AppContext, id: string): ScimGroupRow {
  const row = isUuid(id) ? ctx.stores.scim.group(id.toLowerCase()) : undefined;
  if (!row) throw new AppError('not_found', `no Group ${id}`);
  return row;
}

/** Checks a new displayName is free (409 uniqueness) and renames the group (GROUPS_UPDATED). */
function renameGroup(ctx: AppContext, actor: Actor, row: ScimGroupRow, displayName: string): void {
  if (displayName === row.name) return;
  const other = ctx.stores.scim.groupByName(displayName);
  if (other && other.id !== row.id) throw new ScimProblem('conflict', 'uniqueness', `displayName: a group named ${displayName} already exists`, [{ path: 'displayName', message: 'already in use' }]);
  updateGroups(ctx, actor, [{ group_id: row.id, name: displayName }]);
}

/** PUT: the name, externalId and members become what `input` says (offboarded members skipped). */
export function replaceGroup(ctx: AppContext, actor: Actor, id: string, input: ScimGroupInput): ScimGroupRow & { skipped: string[] } {
  const now = ctx.clock.now();
  return write(ctx, () => {
    const row = scimGroup(ctx, id);
    renameGroup(ctx, actor, row, input.displayName);
    const members = memberIds(ctx, input.members);
    setMembers(ctx, actor, row.id, members.ids);
    logSkipped(ctx, row.id, members.skipped);
    ctx.stores.scim.saveGroup(row.id, input.externalId ?? null, now);
    return { ...ctx.stores.scim.group(row.id)!, skipped: members.skipped };
  });
}

/**
 * PATCH: `operations` applied in order to the group as it is inside the write (group-patch.ts), then
 * written whole or not at all. Removing a member who is not there is nothing; offboarded users added are
 * skipped; an id that is no user is a 400 naming `members`. The bounds are checked before anything is read.
 */
export function patchGroup(ctx: AppContext, actor: Actor, id: string, operations: PatchInput['Operations']): ScimGroupRow & { skipped: string[] } {
  checkPatchBounds(operations);
  const now = ctx.clock.now();
  return write(ctx, () => {
    const row = scimGroup(ctx, id);
    const held = new Set(groupMembers(ctx, row.id).map((m) => m.id));
    const next = applyGroupPatch({ id: row.id, displayName: row.name, externalId: row.external_id, members: held }, operations);
    renameGroup(ctx, actor, row, next.displayName);
    const joining = admit(ctx, [...next.members].filter((member) => !held.has(member)).map((member) => ({ id: member, path: 'members' })));
    const joined = new Set(joining.ids);
    setMembers(ctx, actor, row.id, [...next.members].filter((member) => held.has(member) || joined.has(member)), held);
    logSkipped(ctx, row.id, joining.skipped);
    ctx.stores.scim.saveGroup(row.id, next.externalId, now);
    return { ...ctx.stores.scim.group(row.id)!, skipped: joining.skipped };
  });
}

/** DELETE: the group goes, and every access through it ends (GROUPS_DELETED with its edges). */
export function removeGroup(ctx: AppContext, actor: Actor, id: string): void {
  write(ctx, () => deleteGroup(ctx, actor, scimGroup(ctx, id).id));
}
