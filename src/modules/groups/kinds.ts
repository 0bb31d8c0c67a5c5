// The group types and the kinds of remote_info and metadata each may carry, spelled as the reference spells them.
import { kindTable } from '../items/kinds.ts';

/** The reference's GroupTypeEnum, exactly. */
export const GROUP_TYPES = [
  'ACTIVE_DIRECTORY_GROUP', 'AWS_SSO_GROUP', 'DATABRICKS_ACCOUNT_GROUP', 'DUO_GROUP', 'GIT_HUB_TEAM', 'GIT_LAB_GROUP',
  'GOOGLE_GROUPS_GROUP', 'GOOGLE_GROUPS_GKE_GROUP', 'LDAP_GROUP', 'OKTA_GROUP', 'OKTA_GROUP_RULE', 'TAILSCALE_GROUP',
  'OPAL_GROUP', 'OPAL_ACCESS_RULE', 'AZURE_AD_SECURITY_GROUP', 'AZURE_AD_MICROSOFT_365_GROUP', 'CONNECTOR_GROUP',
  'SNOWFLAKE_ROLE', 'WORKDAY_USER_SECURITY_GROUP', 'PAGERDUTY_ON_CALL_SCHEDULE', 'INCIDENTIO_ON_CALL_SCHEDULE',
  'ROOTLY_ON_CALL_SCHEDULE', 'DEVIN_GROUP', 'GIT_HUB_ENTERPRISE_TEAM', 'GRAFANA_TEAM', 'CLICKHOUSE_ROLE',
  'SLACK_USER_GROUP', 'TWINGATE_GROUP', 'TWINGATE_GROUP_SYNCED', 'ZENDESK_GROUP', 'ZENDESK_ORGANIZATION', 'HUBSPOT_TEAM',
] as const;

const GOOGLE_GROUPS = 'GOOGLE_GROUPS_GROUP GOOGLE_GROUPS_GKE_GROUP';

/** The reference's GroupRemoteInfo: one property per kind, with that kind's fields. */
export const GROUP_REMOTE_INFO_KINDS = kindTable({
  active_directory_group: 'group_id',
  tailscale_group: 'group_id',
  twingate_group: 'group_id',
  twingate_group_synced: 'group_id',
  aws_sso_group: 'group_id',
  databricks_account_group: 'group_id',
  connector_group: 'group_id',
  github_team: ['?team_id team_slug ?org_name', 'GIT_HUB_TEAM'],
  github_enterprise_team: ['team_slug', 'GIT_HUB_ENTERPRISE_TEAM'],
  gitlab_group: ['group_id', 'GIT_LAB_GROUP'],
  google_group: ['group_id', GOOGLE_GROUPS],
  ldap_group: 'group_id',
  okta_group: 'group_id',
  duo_group: 'group_id',
  azure_ad_security_group: 'group_id',
  azure_ad_microsoft_365_group: 'group_id',
  snowflake_role: 'role_id',
  okta_group_rule: 'rule_id',
  workday_user_security_group: 'group_id',
  pagerduty_on_call_schedule: 'schedule_id',
  incidentio_on_call_schedule: 'schedule_id',
  rootly_on_call_schedule: 'schedule_id',
  devin_group: 'group_name',
  clickhouse_role: 'role_id',
  grafana_team: 'team_id',
  zendesk_group: 'group_id',
  slack_user_group: 'group_id',
  zendesk_organization: 'organization_id',
  hubspot_team: 'team_id',
});

/** Remote-id fields where a kind has more than one required field (none today: each names its one id). */
export const GROUP_REMOTE_ID_FIELDS: Record<string, string[]> = {};

/** The deprecated metadata's schema (the reference's "Group Metadata" JSON schema in CreateGroupInfo). */
export const GROUP_METADATA_KINDS = kindTable({
  ad_group: ['object_guid', 'ACTIVE_DIRECTORY_GROUP'],
  duo_group: 'group_id',
  git_hub_team: 'org_name team_slug',
  google_groups_group: ['group_id', GOOGLE_GROUPS],
  ldap_group: 'group_uid',
  okta_directory_group: ['group_id', 'OKTA_GROUP'],
});
