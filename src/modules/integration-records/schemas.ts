// Valibot schemas for message channels, their links, scoped role permissions and sync errors.
import * as v from 'valibot';
import { Name, Text, Uuid } from '../../http/common-schemas.ts';
import { RECORD_KINDS, ROLE_PERMISSION_NAMES, ROLE_PERMISSION_TARGET_TYPES, type RecordKind } from './kinds.ts';

const LowerUuid = v.pipe(Uuid, v.toLowerCase());

const recordEntries = <P extends readonly [string, ...string[]]>(providers: P) => ({
  third_party_provider: v.picklist(providers, `must be one of ${providers.join(', ')}`),
  remote_id: v.pipe(Text(200), v.trim(), v.minLength(1, 'must not be empty')),
  name: v.optional(Name(200)),
});

/** POST /message-channels: the reference's two fields, plus the name and privacy Gatehouse cannot look up. */
export const CREATE_RECORD_BODIES = {
  message_channel: v.object({
    ...recordEntries(RECORD_KINDS.message_channel.providers),
    is_private: v.optional(v.boolean('must be true or false')),
  }),
} satisfies Record<RecordKind, v.GenericSchema>;

export interface CreateRecordInput {
  third_party_provider: string;
  remote_id: string;
  name?: string | undefined;
  is_private?: boolean | undefined;
}

/** At most this many records named by one resource or group. */
export const MAX_LINKED = 100;

/** PUT …/message-channels: the ids, each once, in the order to keep (the on-call area's …/on-call-schedules has its own). */
export function setLinkedBody(field: 'message_channel_ids') {
  return v.object({
    [field]: v.pipe(v.array(LowerUuid, 'must be a list of ids'), v.maxLength(MAX_LINKED, `must list at most ${MAX_LINKED} ids`)),
  });
}

export const ScopedRolePermissionsBody = v.object({
  permissions: v.pipe(
    v.array(
      v.object({
        target_ids: v.optional(v.pipe(v.array(LowerUuid, 'must be a list of ids'), v.maxLength(1000, 'must list at most 1000 ids'))),
        target_type: v.picklist(ROLE_PERMISSION_TARGET_TYPES, `must be one of ${ROLE_PERMISSION_TARGET_TYPES.join(', ')}`),
        permission_name: v.picklist(ROLE_PERMISSION_NAMES, 'must be one of the reference\'s RolePermissionNameEnum values'),
        allow_all: v.boolean('must be true or false'),
      }),
      'must be a list of permissions',
    ),
    v.maxLength(1000, 'must list at most 1000 permissions'),
  ),
});
export type ScopedRolePermissionInput = v.InferOutput<typeof ScopedRolePermissionsBody>['permissions'][number];

/** One id in the query string, given at most once. */
const QueryUuid = v.pipe(v.string('must be given once'), v.uuid('must be a UUID'), v.toLowerCase());

export const SyncErrorsQuery = v.object({
  app_id: v.optional(QueryUuid),
  resource_id: v.optional(QueryUuid),
  group_id: v.optional(QueryUuid),
});
