// The table of access-edge kinds: which table holds each, its two ends, and the events its changes record.
// Everything that writes or sweeps edges is driven from here, the way TAG_TARGETS drives tag links.
import { expiryAfter } from '../../lib/durations.ts';
import type { EventType } from '../events/types.ts';

/** What an end of an edge is; decides how its name is looked up and which 404 names it. */
export type EndType = 'user' | 'group' | 'resource';

export interface EdgeKind {
  /** The edge table; never taken from input. */
  table: string;
  /** Column of the holder (user, group or non-human identity). */
  principal: string;
  principalType: EndType;
  /** Column of what is held (resource or group). */
  item: string;
  itemType: EndType;
  /** Event types recorded when an edge is given, changed, taken away and swept after expiring. */
  events: { added: EventType; updated: EventType; removed: EventType; expired: EventType };
  /** How a client changes the duration of an edge it holds (said when it grants it twice). */
  toChange: string;
}

export const EDGE_KINDS = {
  resource_user: {
    table: 'resource_users', principal: 'user_id', principalType: 'user', item: 'resource_id', itemType: 'resource',
    events: { added: 'RESOURCE_USERS_ADDED', updated: 'RESOURCE_USERS_UPDATED', removed: 'RESOURCE_USERS_REMOVED', expired: 'RESOURCE_USERS_EXPIRED' },
    toChange: 'use PUT /v1/resources/{resource_id}/users/{user_id} to change its duration',
  },
  resource_nhi: {
    table: 'resource_non_human_identities', principal: 'non_human_identity_id', principalType: 'resource', item: 'resource_id', itemType: 'resource',
    events: {
      added: 'RESOURCE_NON_HUMAN_IDENTITIES_ADDED', updated: 'RESOURCE_NON_HUMAN_IDENTITIES_UPDATED',
      removed: 'RESOURCE_NON_HUMAN_IDENTITIES_REMOVED', expired: 'RESOURCE_NON_HUMAN_IDENTITIES_EXPIRED',
    },
    toChange: 'to change its duration, DELETE it and add it again',
  },
  group_user: {
    table: 'group_users', principal: 'user_id', principalType: 'user', item: 'group_id', itemType: 'group',
    events: { added: 'GROUP_USERS_ADDED', updated: 'GROUP_USERS_UPDATED', removed: 'GROUP_USERS_REMOVED', expired: 'GROUP_USERS_EXPIRED' },
    toChange: 'use PUT /v1/groups/{group_id}/users/{user_id} to change its duration',
  },
  group_resource: {
    table: 'group_resources', principal: 'group_id', principalType: 'group', item: 'resource_id', itemType: 'resource',
    events: { added: 'GROUP_RESOURCES_ADDED', updated: 'GROUP_RESOURCES_UPDATED', removed: 'GROUP_RESOURCES_REMOVED', expired: 'GROUP_RESOURCES_EXPIRED' },
    toChange: 'to change its duration, DELETE it and add it again',
  },
  group_group: {
    table: 'group_groups', principal: 'group_id', principalType: 'group', item: 'containing_group_id', itemType: 'group',
    events: { added: 'GROUPS_ADDED_TO_GROUPS', updated: 'GROUPS_UPDATED_IN_GROUPS', removed: 'GROUPS_REMOVED_FROM_GROUPS', expired: 'GROUPS_IN_GROUPS_EXPIRED' },
    toChange: 'to change its duration, DELETE it and add it again',
  },
} as const satisfies Record<string, EdgeKind>;

export type EdgeKindName = keyof typeof EDGE_KINDS;
export const EDGE_KIND_NAMES = Object.keys(EDGE_KINDS) as EdgeKindName[];

/** Where an edge came from: given directly, by an approved request (source_id = request id), or by an access rule (source_id = rule id). */
export type EdgeSource = 'DIRECT' | 'REQUEST' | 'RULE';

/** Which edge: its two ends and the item's access level ('' is the default level). */
export interface EdgeKey {
  principalId: string;
  itemId: string;
  level: string;
}

/** When access granted at `now` for `minutes` ends: null (no expiry) for 0, the spec's "indefinite". */
export const edgeExpiry = (now: Date, minutes: number): string | null => expiryAfter(now, minutes, 0);

/** Stands for "never expires" where expiries are compared as text (min along a path, max over paths). */
export const NEVER = '9999-12-31T23:59:59.999Z';
