// The resources area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component, uuid, extension, described, paginated } from '../../openapi/responses.ts';
import { ResourceTypeEnum, RDSEngineEnum } from '../../openapi/enums.ts';
import { ResourceAccessLevel } from '../access/responses.ts';
import { SyncTask } from '../items/responses.ts';
import { TicketPropagationConfiguration, requestSettingsFields } from '../request-settings/responses.ts';

export const ResourceRemoteInfo = component('ResourceRemoteInfo', v.object({
  databricks_account_service_principal: v.optional(v.object({
    application_id: v.string(),
    resource_id: v.string(),
  })),
  azure_subscription: v.optional(v.object({
    resource_id: v.string(),
  })),
  azure_resource_group: v.optional(v.object({
    resource_id: v.string(),
  })),
  azure_management_group: v.optional(v.object({
    resource_id: v.string(),
  })),
  azure_virtual_machine: v.optional(v.object({
    resource_id: v.string(),
  })),
  azure_storage_account: v.optional(v.object({
    resource_id: v.string(),
  })),
  azure_storage_container: v.optional(v.object({
    resource_id: v.string(),
  })),
  azure_sql_server: v.optional(v.object({
    resource_id: v.string(),
  })),
  azure_sql_database: v.optional(v.object({
    resource_id: v.string(),
  })),
  azure_sql_managed_instance: v.optional(v.object({
    resource_id: v.string(),
  })),
  azure_sql_managed_database: v.optional(v.object({
    resource_id: v.string(),
  })),
  azure_user_assigned_managed_identity: v.optional(v.object({
    resource_id: v.string(),
  })),
  azure_enterprise_app: v.optional(v.object({
    resource_id: v.string(),
  })),
  azure_entra_id_role: v.optional(v.object({
    resource_id: v.string(),
  })),
  aws_organizational_unit: v.optional(v.object({
    parent_id: v.optional(v.string()),
    organizational_unit_id: v.string(),
  })),
  aws_account: v.optional(v.object({
    account_id: v.string(),
    organizational_unit_id: v.optional(v.string()),
  })),
  aws_permission_set: v.optional(v.object({
    arn: v.string(),
    account_id: v.string(),
  })),
  aws_iam_role: v.optional(v.object({
    arn: v.string(),
    account_id: v.optional(v.string()),
  })),
  aws_ec2_instance: v.optional(v.object({
    instance_id: v.string(),
    region: v.string(),
    account_id: v.optional(v.string()),
  })),
  aws_rds_cluster: v.optional(v.object({
    cluster_id: v.string(),
    region: v.string(),
    resource_id: v.string(),
    account_id: v.string(),
    database_name: v.string(),
    engine: RDSEngineEnum,
  })),
  aws_rds_instance: v.optional(v.object({
    instance_id: v.string(),
    region: v.string(),
    resource_id: v.string(),
    account_id: v.optional(v.string()),
  })),
  aws_eks_cluster: v.optional(v.object({
    arn: v.string(),
    account_id: v.optional(v.string()),
  })),
  custom_connector: v.optional(v.object({
    remote_resource_id: v.string(),
    can_have_usage_events: v.boolean(),
  })),
  gcp_organization: v.optional(v.object({
    organization_id: v.string(),
  })),
  gcp_bucket: v.optional(v.object({
    bucket_id: v.string(),
  })),
  gcp_compute_instance: v.optional(v.object({
    instance_id: v.string(),
    project_id: v.string(),
    zone: v.string(),
  })),
  gcp_big_query_dataset: v.optional(v.object({
    project_id: v.string(),
    dataset_id: v.string(),
  })),
  gcp_big_query_table: v.optional(v.object({
    project_id: v.string(),
    dataset_id: v.string(),
    table_id: v.string(),
  })),
  gcp_folder: v.optional(v.object({
    folder_id: v.string(),
  })),
  gcp_gke_cluster: v.optional(v.object({
    cluster_name: v.string(),
  })),
  gcp_project: v.optional(v.object({
    project_id: v.string(),
  })),
  gcp_sql_instance: v.optional(v.object({
    instance_id: v.string(),
    project_id: v.string(),
  })),
  gcp_service_account: v.optional(v.object({
    email: v.string(),
    service_account_id: v.string(),
    project_id: v.string(),
  })),
  google_workspace_role: v.optional(v.object({
    role_id: v.string(),
  })),
  github_repo: v.optional(v.object({
    repo_id: v.optional(v.string()),
    repo_name: v.string(),
    org_name: v.optional(v.string()),
  })),
  github_org_role: v.optional(v.object({
    role_id: v.string(),
    org_name: v.optional(v.string()),
  })),
  github_org: v.optional(v.object({
    org_name: v.string(),
  })),
  github_enterprise_role: v.optional(v.object({
    role_id: v.string(),
  })),
  gitlab_project: v.optional(v.object({
    project_id: v.string(),
  })),
  okta_app: v.optional(v.object({
    app_id: v.string(),
  })),
  okta_standard_role: v.optional(v.object({
    role_type: v.string(),
  })),
  okta_custom_role: v.optional(v.object({
    role_id: v.string(),
  })),
  snowflake_database: v.optional(v.object({
    database_name: v.string(),
  })),
  snowflake_schema: v.optional(v.object({
    database_name: v.string(),
    schema_name: v.string(),
  })),
  snowflake_table: v.optional(v.object({
    database_name: v.string(),
    schema_name: v.string(),
    table_name: v.string(),
  })),
  ilevel_advanced_role: v.optional(v.object({
    role_name: v.string(),
  })),
  tailscale_ssh: v.optional(v.object({
    tag_name: v.string(),
  })),
  twingate_resource: v.optional(v.object({
    resource_id: v.string(),
  })),
  pagerduty_role: v.optional(v.object({
    role_name: v.string(),
  })),
  workday_role: v.optional(v.object({
    role_id: v.string(),
  })),
  salesforce_permission_set: v.optional(v.object({
    permission_set_id: v.string(),
  })),
  salesforce_profile: v.optional(v.object({
    profile_id: v.string(),
    user_license_id: v.string(),
  })),
  salesforce_role: v.optional(v.object({
    role_id: v.string(),
  })),
  teleport_role: v.optional(v.object({
    role_name: v.string(),
  })),
  datastax_astra_role: v.optional(v.object({
    role_id: v.string(),
  })),
  coupa_role: v.optional(v.object({
    role_id: v.string(),
  })),
  cursor_organization: v.optional(v.object({
    org_id: v.string(),
  })),
  openai_platform_project: v.optional(v.object({
    project_id: v.string(),
  })),
  openai_platform_service_account: v.optional(v.object({
    project_id: v.string(),
    service_account_id: v.string(),
  })),
  anthropic_workspace: v.optional(v.object({
    workspace_id: v.string(),
  })),
  oracle_fusion_role: v.optional(v.object({
    role_id: v.string(),
  })),
  devin_organization: v.optional(v.object({
    org_id: v.string(),
  })),
  devin_role: v.optional(v.object({
    role_id: v.string(),
  })),
  netsuite_role: v.optional(v.object({
    role_id: v.string(),
  })),
  datadog_role: v.optional(v.object({
    role_id: v.string(),
  })),
  clickhouse_database: v.optional(v.object({
    database_name: v.string(),
  })),
  clickhouse_table: v.optional(v.object({
    database_name: v.string(),
    table_name: v.string(),
  })),
  grafana_folder: v.optional(v.object({
    folder_uid: v.string(),
  })),
  grafana_dashboard: v.optional(v.object({
    dashboard_uid: v.string(),
  })),
  grafana_role: v.optional(v.object({
    role_uid: v.string(),
  })),
  zendesk_role: v.optional(v.object({
    role_id: v.string(),
  })),
  hubspot_role: v.optional(v.object({
    role_id: v.string(),
  })),
}));
export type ResourceRemoteInfo = v.InferOutput<typeof ResourceRemoteInfo>;

export const Resource = component('Resource', described(v.object({
  access_levels: extension(v.array(ResourceAccessLevel), 'The access levels the resource offers; the default level has remote id "".'),
  resource_id: uuid,
  app_id: uuid,
  name: v.string(),
  description: v.string(),
  admin_owner_id: uuid,
  remote_resource_id: v.optional(v.string()),
  remote_resource_name: v.optional(v.string()),
  resource_type: ResourceTypeEnum,
  ...requestSettingsFields,
  require_mfa_to_connect: v.boolean(),
  parent_resource_id: v.optional(uuid),
  ticket_propagation: v.optional(TicketPropagationConfiguration),
  metadata: v.optional(v.string()),
  remote_info: v.optional(ResourceRemoteInfo),
  ancestor_resource_ids: v.array(uuid),
  descendant_resource_ids: v.array(uuid),
  last_successful_sync: v.optional(SyncTask),
}), 'Something access is granted to: a role, a database, an account.'));
export type Resource = v.InferOutput<typeof Resource>;

export const PaginatedResourcesList = paginated('PaginatedResourcesList', Resource);

export const UpdatedResourceList = component('UpdatedResourceList', v.object({
  resources: v.array(Resource),
}));
