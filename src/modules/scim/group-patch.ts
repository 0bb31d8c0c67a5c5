// A Group PATCH (RFC 7644 §3.5.2) as Okta and Entra ID send it, applied to a group's name, externalId and
// member set directly: members are a set of ids, so adding one is O(1) and removing one already gone is
// nothing at all (issue 37.1), whatever the group's size (issue 36.5: scim-patch walked every member per
// filtered removal). The operations are counted before anything is read (checkPatchBounds).
import { parse, type Filter } from 'scim2-parse-filter';
import { invalidPath, invalidSyntax, invalidValue, mutability, ScimProblem } from './errors.ts';
import { GROUP_SCHEMA, MAX_MEMBER_CHANGES, type Json } from './resources.ts';
import { canonicalKeys, GROUP_SHAPE, type PatchInput } from './schemas.ts';

/** Most operations one PATCH may carry (docs/scim.md); each is cheap, and a provider sends a handful. */
export const MAX_PATCH_OPERATIONS = 1_000;
/** Most member values all the operations of one PATCH may name together, like the changes it may make. */
export const MAX_PATCH_MEMBER_VALUES = MAX_MEMBER_CHANGES;

type Operation = PatchInput['Operations'][number];

/**
 * Refuses (400 tooMany) a PATCH whose operations, or whose member values all told, exceed the bounds —
 * by counting, before any resource is read or any value looked at.
 */
export function checkPatchBounds(operations: readonly Operation[]): void {
  if (operations.length > MAX_PATCH_OPERATIONS) {
    throw new ScimProblem('validation_failed', 'tooMany', `Operations: at most ${MAX_PATCH_OPERATIONS} operations per PATCH; send the rest in another`, [{ path: 'Operations', message: `must have at most ${MAX_PATCH_OPERATIONS} operations` }]);
  }
  let values = 0;
  for (const op of operations) {
    const value = op.value;
    if (Array.isArray(value)) values += value.length;
    else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) if (key.toLowerCase() === 'members' && Array.isArray(inner)) values += inner.length;
    }
  }
  if (values > MAX_PATCH_MEMBER_VALUES) {
    throw new ScimProblem('validation_failed', 'tooMany', `Operations: name at most ${MAX_PATCH_MEMBER_VALUES} members per PATCH (this one names ${values}); send the rest in parts`, [{ path: 'Operations', message: `must name at most ${MAX_PATCH_MEMBER_VALUES} members` }]);
  }
}

/** A group as a PATCH changes it. */
export interface GroupState {
  id: string;
  displayName: string;
  externalId: string | null;
  /** Member user ids, lower case. */
  members: Set<string>;
}

const CORE_PREFIX = `${GROUP_SCHEMA.toLowerCase()}:`;

/** The member ids a value lists: `[{value: id, type?}]` (a group as a member is refused: no nesting). */
function memberValues(value: unknown, where: string): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((item, index) => {
    const member = canonicalKeys(item, GROUP_SHAPE.nested!.members!) as { value?: unknown; type?: unknown } | null;
    if (member === null || typeof member !== 'object' || typeof member.value !== 'string') throw invalidSyntax(`Operations: ${where} lists each member as {"value": "<user id>"}`);
    if (typeof member.type === 'string' && member.type.toLowerCase() === 'group') throw invalidValue(`members.${index}.value`, 'is a group: Gatehouse takes users as SCIM group members, not groups');
    return member.value.trim().toLowerCase();
  });
}

/** The ids a `members[…]` filter names: `value eq "…"`, or several joined by `or`; anything else is invalidPath. */
function filteredIds(filterText: string): string[] {
  let tree: Filter;
  try {
    tree = parse(filterText);
  } catch {
    throw invalidPath(`Operations: members[${filterText.slice(0, 100)}] is not a filter`);
  }
  const ids: string[] = [];
  const walk = (node: Filter): void => {
    if (node.op === 'or') return (node as Extract<Filter, { filters: Filter[] }>).filters.forEach(walk);
    const compare = node as Extract<Filter, { compValue: unknown }>;
    if (node.op === 'eq' && compare.attrPath.toLowerCase() === 'value' && typeof compare.compValue === 'string') {
      ids.push(compare.compValue.trim().toLowerCase());
      return;
    }
    throw invalidPath('Operations: a members filter names members by value, e.g. members[value eq "<user id>"]');
  };
  walk(tree);
  return ids;
}

const text = (value: unknown, path: string, max: number): string => {
  if (typeof value !== 'string' || value.trim() === '') throw invalidValue(path, 'must be a non-empty string');
  if (value.length > max) throw invalidValue(path, `must be at most ${max} characters`);
  return value.trim();
};

/** Sets one top-level attribute (`displayName`, `externalId`, `members`, `id`) as `op` says. */
function setAttribute(state: GroupState, op: 'add' | 'replace' | 'remove', name: string, value: unknown): void {
  switch (name) {
    case 'id':
      if (op === 'remove' || String(value).toLowerCase() !== state.id) throw mutability('id', 'is assigned by Gatehouse and cannot change');
      return;
    case 'displayName':
      if (op === 'remove') throw invalidValue('displayName', 'is required and cannot be removed');
      state.displayName = text(value, 'displayName', 200);
      return;
    case 'externalId':
      state.externalId = op === 'remove' || value === null ? null : text(value, 'externalId', 200);
      return;
    case 'members':
      if (op === 'replace') state.members = new Set(value === null ? [] : memberValues(value, 'replace members'));
      else if (op === 'add') for (const id of memberValues(value, 'add members')) state.members.add(id);
      // A removal with values removes those (Entra ID); without, every member. Removing one not there is nothing.
      else if (value === undefined || value === null) state.members.clear();
      else for (const id of memberValues(value, 'remove members')) state.members.delete(id);
      return;
    case 'schemas':
    case 'meta':
      return;
    default:
      throw invalidPath(`Operations: a Group has no attribute "${name}" Gatehouse keeps (displayName, externalId, members)`);
  }
}

/**
 * `state` after `operations`, in order (the caller has checked the bounds). Throws a SCIM 400 for a path
 * that cannot be followed (invalidPath), an operation missing what it needs (invalidSyntax), a bad value
 * (invalidValue), or a changed id (mutability).
 */
export function applyGroupPatch(state: GroupState, operations: readonly Operation[]): GroupState {
  const next: GroupState = { ...state, members: new Set(state.members) };
  for (const operation of operations) {
    const op = operation.op as 'add' | 'replace' | 'remove';
    if (operation.path === undefined || operation.path.trim() === '') {
      if (op === 'remove') throw invalidSyntax('Operations: a remove needs a path');
      if (operation.value === null || typeof operation.value !== 'object' || Array.isArray(operation.value)) {
        throw invalidSyntax(`Operations: an ${op} without a path takes an object of attributes, e.g. {"displayName": "…"}`);
      }
      for (const [key, value] of Object.entries(canonicalKeys(operation.value, GROUP_SHAPE) as Json)) setAttribute(next, op, key, value);
      continue;
    }
    let path = operation.path.trim();
    if (path.toLowerCase().startsWith(CORE_PREFIX)) path = path.slice(CORE_PREFIX.length);
    const filtered = /^members\s*\[(.*)\]$/is.exec(path);
    if (filtered) {
      if (op !== 'remove') throw invalidPath('Operations: add or replace members with path "members" and a list of values');
      for (const id of filteredIds(filtered[1]!)) next.members.delete(id);
      continue;
    }
    const name = GROUP_SHAPE.names[path.toLowerCase()];
    if (name === undefined) throw invalidPath(`Operations: a Group has no attribute "${path.slice(0, 100)}" Gatehouse keeps (displayName, externalId, members)`);
    if (op !== 'remove' && operation.value === undefined) throw invalidSyntax(`Operations: ${op} needs a value`);
    setAttribute(next, op, name, operation.value);
  }
  return next;
}
