// The integration-records area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { RECORD_KINDS, ROLE_PERMISSION_NAMES, ROLE_PERMISSION_TARGET_TYPES } from './kinds.ts';
import { component, uuid, dateTime } from '../../openapi/responses.ts';

export const MessageChannelProviderEnum = component('MessageChannelProviderEnum', v.picklist(RECORD_KINDS.message_channel.providers));

export const MessageChannel = component('MessageChannel', v.object({
  message_channel_id: uuid,
  third_party_provider: v.optional(MessageChannelProviderEnum),
  remote_id: v.optional(v.string()),
  name: v.optional(v.string()),
  is_private: v.optional(v.boolean()),
}));
export type MessageChannel = v.InferOutput<typeof MessageChannel>;

export const MessageChannelList = component('MessageChannelList', v.object({
  channels: v.array(MessageChannel),
}));

export const RolePermissionTargetTypeEnum = component('RolePermissionTargetTypeEnum', v.picklist(ROLE_PERMISSION_TARGET_TYPES));

export const RolePermissionNameEnum = component('RolePermissionNameEnum', v.picklist(ROLE_PERMISSION_NAMES));

export const ScopedRolePermission = component('ScopedRolePermission', v.object({
  target_ids: v.optional(v.array(uuid)),
  target_type: RolePermissionTargetTypeEnum,
  permission_name: RolePermissionNameEnum,
  allow_all: v.boolean(),
}));
export type ScopedRolePermission = v.InferOutput<typeof ScopedRolePermission>;

export const ScopedRolePermissionList = component('ScopedRolePermissionList', v.object({
  permissions: v.array(ScopedRolePermission),
}));

export const SyncError = component('SyncError', v.object({
  first_seen: dateTime,
  last_seen: dateTime,
  error_message: v.string(),
  app_id: v.optional(uuid),
}));
export type SyncError = v.InferOutput<typeof SyncError>;

export const SyncErrorList = component('SyncErrorList', v.object({
  sync_errors: v.array(SyncError),
}));
