// The tables of record kinds and link kinds: statements, schemas, routes and events are all read off these.

/** Records of a third-party object Gatehouse does not look up: a Slack channel (on-call schedules are the on-call area's). */
export const RECORD_KINDS = {
  message_channel: {
    table: 'message_channels',
    idField: 'message_channel_id',
    path: 'message-channels',
    listKey: 'channels',
    label: 'message channel',
    providers: ['SLACK'],
    hasPrivacy: true,
    createdEvent: 'MESSAGE_CHANNELS_CREATED',
  },
} as const;
export type RecordKind = keyof typeof RECORD_KINDS;

/** Which records a resource or group names, each kind in its own link table. */
export const LINK_KINDS = {
  resource_message_channels: { table: 'resource_message_channels', owner: 'resource', ownerColumn: 'resource_id', record: 'message_channel', event: 'RESOURCE_MESSAGE_CHANNELS_UPDATED' },
  group_message_channels: { table: 'group_message_channels', owner: 'group', ownerColumn: 'group_id', record: 'message_channel', event: 'GROUP_MESSAGE_CHANNELS_UPDATED' },
} as const;
export type LinkKind = keyof typeof LINK_KINDS;

/** The reference's RolePermissionTargetTypeEnum and RolePermissionNameEnum. */
export const ROLE_PERMISSION_TARGET_TYPES = ['RESOURCE', 'CONNECTION', 'GROUP', 'BUNDLE', 'USER', 'ACCESS_REVIEW', 'OWNER'] as const;
export const ROLE_PERMISSION_NAMES = [
  'READ', 'READ_ASSIGNMENTS', 'CREATE', 'IMPORT', 'EXPORT', 'SYNC', 'DELETE', 'READ_SETTINGS', 'EDIT_TAGS', 'EDIT_SETTINGS',
  'EDIT_SYNC_SETTINGS', 'EDIT_ASSIGNMENTS', 'EDIT_REQUEST_CONFIGURATIONS', 'EDIT_EVENT_STREAM', 'ASSIGN_UAR_REVIEWERS',
  'SEND_REMINDERS', 'STOP', 'REQUEST_ON_BEHALF', 'RESET_MFA',
] as const;

/** Only resources of this type have scoped role permissions (the reference says so). */
export const SCOPED_ROLE_TYPE = 'OPAL_SCOPED_ROLE';
