// The groups area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component, uuid, extension, described, paginated } from '../../openapi/responses.ts';
import { GroupTypeEnum } from '../../openapi/enums.ts';
import { ResourceAccessLevel } from '../access/responses.ts';
import { SyncTask } from '../items/responses.ts';
import { requestSettingsFields } from '../request-settings/responses.ts';

export const GroupRemoteInfo = component('GroupRemoteInfo', v.object({
  active_directory_group: v.optional(v.object({
    group_id: v.string(),
  })),
  tailscale_group: v.optional(v.object({
    group_id: v.string(),
  })),
  twingate_group: v.optional(v.object({
    group_id: v.string(),
  })),
  twingate_group_synced: v.optional(v.object({
    group_id: v.string(),
  })),
  aws_sso_group: v.optional(v.object({
    group_id: v.string(),
  })),
  databricks_account_group: v.optional(v.object({
    group_id: v.string(),
  })),
  connector_group: v.optional(v.object({
    group_id: v.string(),
  })),
  github_team: v.optional(v.object({
    team_id: v.optional(v.string()),
    team_slug: v.string(),
    org_name: v.optional(v.string()),
  })),
  github_enterprise_team: v.optional(v.object({
    team_slug: v.string(),
  })),
  gitlab_group: v.optional(v.object({
    group_id: v.string(),
  })),
  google_group: v.optional(v.object({
    group_id: v.string(),
  })),
  ldap_group: v.optional(v.object({
    group_id: v.string(),
  })),
  okta_group: v.optional(v.object({
    group_id: v.string(),
  })),
  duo_group: v.optional(v.object({
    group_id: v.string(),
  })),
  azure_ad_security_group: v.optional(v.object({
    group_id: v.string(),
  })),
  azure_ad_microsoft_365_group: v.optional(v.object({
    group_id: v.string(),
  })),
  snowflake_role: v.optional(v.object({
    role_id: v.string(),
  })),
  okta_group_rule: v.optional(v.object({
    rule_id: v.string(),
  })),
  workday_user_security_group: v.optional(v.object({
    group_id: v.string(),
  })),
  pagerduty_on_call_schedule: v.optional(v.object({
    schedule_id: v.string(),
  })),
  incidentio_on_call_schedule: v.optional(v.object({
    schedule_id: v.string(),
  })),
  rootly_on_call_schedule: v.optional(v.object({
    schedule_id: v.string(),
  })),
  devin_group: v.optional(v.object({
    group_name: v.string(),
  })),
  clickhouse_role: v.optional(v.object({
    role_id: v.string(),
  })),
  grafana_team: v.optional(v.object({
    team_id: v.string(),
  })),
  zendesk_group: v.optional(v.object({
    group_id: v.string(),
  })),
  slack_user_group: v.optional(v.object({
    group_id: v.string(),
  })),
  zendesk_organization: v.optional(v.object({
    organization_id: v.string(),
  })),
  hubspot_team: v.optional(v.object({
    team_id: v.string(),
  })),
}));
export type GroupRemoteInfo = v.InferOutput<typeof GroupRemoteInfo>;

export const Group = component('Group', described(v.object({
  access_levels: extension(v.array(ResourceAccessLevel), 'The access levels the group offers; the default level has remote id "".'),
  group_id: uuid,
  app_id: uuid,
  name: v.string(),
  description: v.string(),
  admin_owner_id: uuid,
  group_leader_user_ids: v.array(uuid),
  remote_id: v.optional(v.string()),
  remote_name: v.optional(v.string()),
  group_type: GroupTypeEnum,
  ...requestSettingsFields,
  group_binding_id: v.optional(uuid),
  metadata: v.optional(v.string()),
  remote_info: v.optional(GroupRemoteInfo),
  last_successful_sync: v.optional(SyncTask),
}), 'A set of users that is given access as one.'));
export type Group = v.InferOutput<typeof Group>;

export const PaginatedGroupsList = paginated('PaginatedGroupsList', Group);

export const UpdatedGroupList = component('UpdatedGroupList', v.object({
  groups: v.array(Group),
}));
