// Valibot schemas for resources: create, bulk update, list filters, and the access levels a resource offers.
import * as v from 'valibot';
import { Name, PageQueryEntries, QueryList, Text, Uuid } from '../../http/common-schemas.ts';
import { AccessLevels, itemListExtensionFilters, RemoteText } from '../items/schemas.ts';
import { RequestSettingEntries } from '../request-settings/schemas.ts';
import { RESOURCE_TYPES } from './kinds.ts';

const ResourceType = v.picklist(RESOURCE_TYPES, 'must be one of the reference ResourceTypeEnum values (e.g. AWS_IAM_ROLE, CUSTOM)');

const TicketPropagation = v.object({
  enabled_on_grant: v.boolean('must be true or false'),
  enabled_on_revocation: v.boolean('must be true or false'),
  ticket_provider: v.optional(v.picklist(['JIRA', 'LINEAR', 'SERVICE_NOW'], 'must be JIRA, LINEAR or SERVICE_NOW')),
  ticket_project_id: v.optional(Text(200)),
});

const RemoteInfo = v.record(v.string(), v.unknown(), 'must be a JSON object');

/** Fields settable both at creation and by update (beyond the reference's CreateResourceInfo, on purpose). */
const SharedEntries = {
  ...RequestSettingEntries,
  require_mfa_to_connect: v.optional(v.boolean('must be true or false')),
  ticket_propagation: v.optional(v.nullable(TicketPropagation)),
  parent_resource_id: v.optional(v.nullable(Uuid)),
  access_levels: v.optional(AccessLevels),
};

export const CreateResourceBody = v.object({
  name: Name(200),
  resource_type: ResourceType,
  app_id: Uuid,
  description: v.optional(Text(2000), ''),
  admin_owner_id: v.optional(Uuid),
  remote_info: v.optional(RemoteInfo),
  remote_resource_id: v.optional(RemoteText),
  remote_resource_name: v.optional(RemoteText),
  metadata: v.optional(Text(10000)),
  ...SharedEntries,
});
export type CreateResourceInput = v.InferOutput<typeof CreateResourceBody>;

export const UpdateResourceItem = v.object({
  resource_id: Uuid,
  name: v.optional(Name(200)),
  description: v.optional(Text(2000)),
  admin_owner_id: v.optional(Uuid),
  ...SharedEntries,
});
export type UpdateResourceInput = v.InferOutput<typeof UpdateResourceItem>;

export const UpdateResourcesBody = v.object({
  resources: v.pipe(v.array(UpdateResourceItem, 'must be a list of resources'), v.maxLength(1000, 'must list at most 1000 resources')),
});

const QueryText = v.pipe(v.string('must be given once'), v.minLength(1, 'must not be empty'));

export const ListResourcesQuery = v.pipe(
  v.object({
    ...PageQueryEntries,
    resource_type_filter: v.optional(ResourceType),
    resource_ids: v.optional(QueryList(Uuid, { commaSeparated: true })),
    resource_name: v.optional(QueryText),
    parent_resource_id: v.optional(Uuid),
    ancestor_resource_id: v.optional(Uuid),
    remote_id: v.optional(QueryText),
    tag_ids: v.optional(QueryList(Uuid, { commaSeparated: true })),
    ...itemListExtensionFilters('resources'),
  }),
  // The reference: remote ids are only unique within a resource type.
  v.forward(
    v.check((q) => q.remote_id === undefined || q.resource_type_filter !== undefined, 'is required when remote_id is given'),
    ['resource_type_filter'],
  ),
);
