// Valibot schemas for apps.
import * as v from 'valibot';
import { Name, QueryList, Text, Uuid } from '../../http/common-schemas.ts';

/** The reference's AppTypeEnum, spelled exactly. */
export const APP_TYPES = [
  'ACTIVE_DIRECTORY', 'ANTHROPIC', 'AZURE_AD', 'AWS', 'AWS_SSO', 'CLICKHOUSE', 'COUPA', 'CURSOR', 'CUSTOM',
  'CUSTOM_CONNECTOR', 'DATABRICKS', 'DATASTAX_ASTRA', 'DEVIN', 'DUO', 'GCP', 'GIT_HUB', 'GIT_LAB', 'GOOGLE_GROUPS',
  'GOOGLE_WORKSPACE', 'GRAFANA', 'HUBSPOT', 'ILEVEL', 'INCIDENTIO', 'LDAP', 'MARIADB', 'MONGO', 'MONGO_ATLAS', 'MYSQL',
  'NETSUITE', 'DATADOG', 'OKTA_CIAM', 'OKTA_DIRECTORY', 'OPENAI_PLATFORM', 'OPAL', 'ORACLE_FUSION', 'PAGERDUTY',
  'POSTGRES', 'ROOTLY', 'SALESFORCE', 'SNOWFLAKE', 'SLACK', 'TAILSCALE', 'TELEPORT', 'TWINGATE', 'VAULT', 'WORKDAY',
  'ZENDESK',
] as const;

const AppType = v.picklist(APP_TYPES, 'must be one of the reference AppTypeEnum values, e.g. CUSTOM, AWS, OKTA_DIRECTORY');

export const CreateAppBody = v.object({
  name: Name(200),
  description: v.optional(Text(2000), ''),
  app_type: AppType,
  admin_owner_id: Uuid,
});

/**
 * Fields left out keep their value; unknown and read-only fields (app_id, …) are ignored, like on every
 * body. The type is fixed at registration (resources and groups were made for it): app_type may be sent
 * back as it is, and is refused by the service when it differs.
 */
export const UpdateAppBody = v.object({
  name: v.optional(Name(200)),
  description: v.optional(Text(2000)),
  admin_owner_id: v.optional(Uuid),
  app_type: v.optional(AppType),
});

export type UpdateAppInput = v.InferOutput<typeof UpdateAppBody>;

export const ListAppsQuery = v.object({
  // The reference: explode false, so ?app_type_filter=AWS,GCP.
  app_type_filter: v.optional(QueryList(AppType, { commaSeparated: true })),
  owner_filter: v.optional(Uuid),
});
