// Resources through HTTP: POST /resources — defaults, every field, each 400 and 404, metadata and remote_info.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createOwner, createResource, NO_SUCH_ID, unique } from '../helpers/fixtures.ts';
import { assertMatchesComponent } from '../helpers/api-document.ts';
import { RESOURCE_METADATA_KINDS, RESOURCE_REMOTE_INFO_KINDS, RESOURCE_TYPES } from '../../src/modules/resources/kinds.ts';
import { errorPaths } from '../helpers/errors.ts';
import { countEvents, readEvents } from '../helpers/events.ts';

describe('resources: create', () => {
  let app: TestApp;
  let appId: string;
  let appOwnerId: string;
  before(async () => {
    app = await startTestApp();
    const created = await createApp(app.api);
    appId = created.app_id;
    appOwnerId = created.admin_owner_id;
  });
  after(() => app.close());

  /** POSTs a resource expected to fail, and checks status, code, the named field, and that nothing was written. */
  const refused = async (body: Record<string, unknown>, status: number, path: string, message?: RegExp) => {
    const before = await countEvents(app.api, { type: 'RESOURCES_CREATED' });
    const res = await app.api.post('/resources', { name: unique('r'), resource_type: 'CUSTOM', app_id: appId, ...body });
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.ok(res.body.details.some((d: { path: string }) => d.path === path), `expected ${path} in ${JSON.stringify(res.body.details)}`);
    if (message) assert.match(JSON.stringify(res.body), message);
    assert.equal(await countEvents(app.api, { type: 'RESOURCES_CREATED' }), before, 'a refused create records no event');
    return res.body;
  };

  it('creates with defaults: the app owner, every setting present, UNKNOWN risk, the default access level', async () => {
    const res = await app.api.post('/resources', { name: 'Prod DB', resource_type: 'CUSTOM', app_id: appId.toUpperCase() });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const r = res.body;
    assert.equal(r.app_id, appId);
    assert.equal(r.admin_owner_id, appOwnerId);
    assert.equal(r.name, 'Prod DB');
    assert.equal(r.description, '');
    assert.equal(r.resource_type, 'CUSTOM');
    assert.equal(r.max_duration, -1);
    assert.equal(r.recommended_duration, 0);
    assert.equal(r.extensions_duration_in_minutes, 0);
    for (const flag of ['require_manager_approval', 'require_support_ticket', 'require_mfa_to_approve', 'require_mfa_to_request', 'require_mfa_to_connect', 'auto_approval']) {
      assert.equal(r[flag], false, flag);
    }
    assert.equal(r.is_requestable, true);
    assert.equal(r.custom_request_notification, null);
    assert.equal(r.risk_sensitivity, 'UNKNOWN');
    assert.equal('risk_sensitivity_override' in r, false);
    assert.deepEqual(r.ancestor_resource_ids, []);
    assert.deepEqual(r.descendant_resource_ids, []);
    assert.deepEqual(r.access_levels, [{ access_level_name: '', access_level_remote_id: '' }]);
    assert.equal(r.request_configurations.length, 1);
    assert.deepEqual(r.request_configuration_list, r.request_configurations);
    assert.deepEqual((await app.api.get(`/resources/${r.resource_id}`)).body, r);
    assert.deepEqual((await app.api.get(`/resources/${r.resource_id.toUpperCase()}`)).body, r);
    const events = await readEvents(app.api, { object: r.resource_id, type: 'RESOURCES_CREATED' });
    assert.equal(events.length, 1);
    assert.equal(events[0]!.sub_events[0]!.resource_name, 'Prod DB');
    assert.equal((await readEvents(app.api, { object: appId, type: 'RESOURCES_CREATED' })).length >= 1, true);
  });

  it('stores and returns every field given, the override setting risk_sensitivity', async () => {
    const owner = await createOwner(app.api);
    const reviewer = await createOwner(app.api);
    const body = {
      name: 'Admin role', resource_type: 'AWS_IAM_ROLE', app_id: appId, description: 'the admin role', admin_owner_id: owner.owner_id,
      remote_resource_id: 318038399, remote_resource_name: 'AdminRole',
      remote_info: { aws_iam_role: { arn: 'arn:aws:iam::1:role/Admin', account_id: '1' } },
      max_duration: 480, recommended_duration: 60, extensions_duration_in_minutes: 30,
      require_manager_approval: true, require_support_ticket: true, require_mfa_to_approve: true,
      require_mfa_to_request: true, require_mfa_to_connect: true, auto_approval: true, is_requestable: false,
      ticket_propagation: { enabled_on_grant: true, enabled_on_revocation: false, ticket_provider: 'JIRA', ticket_project_id: 'OPS' },
      custom_request_notification: 'x'.repeat(800), risk_sensitivity_override: 'HIGH',
      access_levels: [{ access_level_name: 'Read', access_level_remote_id: 'read' }, { access_level_name: 'Admin', access_level_remote_id: 42 }],
      request_configurations: [
        { allow_requests: false, auto_approval: true, require_mfa_to_request: true, require_support_ticket: true, priority: 0,
          max_duration_minutes: 480, recommended_duration_minutes: 60, extensions_duration_in_minutes: 30,
          reviewer_stages: [{ stage: 1, operator: 'AND', require_manager_approval: false, owner_ids: [reviewer.owner_id] }] },
      ],
    };
    const res = await app.api.post('/resources', body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const r = res.body;
    assert.equal(r.admin_owner_id, owner.owner_id);
    assert.equal(r.remote_resource_id, '318038399');
    assert.equal(r.remote_resource_name, 'AdminRole');
    assert.deepEqual(r.remote_info, body.remote_info);
    for (const key of ['description', 'max_duration', 'recommended_duration', 'extensions_duration_in_minutes', 'require_manager_approval',
      'require_support_ticket', 'require_mfa_to_approve', 'require_mfa_to_request', 'require_mfa_to_connect', 'auto_approval',
      'is_requestable', 'ticket_propagation', 'custom_request_notification', 'risk_sensitivity_override'] as const) {
      assert.deepEqual(r[key], body[key], key);
    }
    assert.equal(r.risk_sensitivity, 'HIGH');
    assert.deepEqual(r.access_levels.map((l: { access_level_remote_id: string }) => l.access_level_remote_id), ['', '42', 'read']);
    for (const level of r.access_levels) assertMatchesComponent('ResourceAccessLevel', level);
    assert.deepEqual(r.request_configurations[0].reviewer_stages[0].owner_ids, [reviewer.owner_id]);
    assert.equal(r.request_configurations[0].allow_requests, false);
    assert.deepEqual((await app.api.get(`/resources/${r.resource_id}`)).body, r);
    // The store answers other areas' access-level checks.
    const { resources } = app.ctx.stores;
    assert.deepEqual(resources.accessLevel(r.resource_id, '42'), { access_level_name: 'Admin', access_level_remote_id: '42' });
    assert.deepEqual(resources.accessLevel(r.resource_id, ''), { access_level_name: '', access_level_remote_id: '' });
    assert.equal(resources.accessLevel(r.resource_id, 'write'), undefined);
    assert.equal(resources.accessLevel(NO_SUCH_ID, ''), undefined);
  });

  it('names each missing or malformed required field', async () => {
    const res = await app.api.post('/resources', {});
    assert.equal(res.status, 400);
    assert.deepEqual(errorPaths(res.body), ['app_id', 'name', 'resource_type']);
    await refused({ app_id: 'not-a-uuid' }, 400, 'app_id');
    await refused({ name: '  ' }, 400, 'name');
  });

  it('takes resource_type from the closed reference enumeration only', async () => {
    for (const type of ['custom', 'AWS_IAM', 'AZURE_USER_ASSIGNED_MANAGED_IDENTITY', '', 7]) await refused({ resource_type: type }, 400, 'resource_type');
    // That RESOURCE_TYPES is the reference's enumeration exactly: test/openapi/conformance.test.ts.
    // Every value of the enumeration is accepted, the reference's odd casing included.
    for (const type of ['AZURE_USER_ASSIGNED_MANAGED_Identity', 'OPAL_SCOPED_ROLE', 'HUBSPOT_ROLE', 'CUSTOM_CONNECTOR']) {
      assert.equal((await createResource(app.api, { app_id: appId, resource_type: type })).resource_id.length, 36);
    }
  });

  it('404s naming app_id, admin_owner_id, parent_resource_id and request configuration references', async () => {
    await refused({ app_id: NO_SUCH_ID }, 404, 'app_id');
    await refused({ admin_owner_id: NO_SUCH_ID }, 404, 'admin_owner_id');
    await refused({ parent_resource_id: NO_SUCH_ID }, 404, 'parent_resource_id');
    const config = { allow_requests: true, auto_approval: false, require_mfa_to_request: false, require_support_ticket: false, priority: 0 };
    await refused({ request_configurations: [{ ...config, reviewer_stages: [{ stage: 1, operator: 'OR', require_manager_approval: false, owner_ids: [NO_SUCH_ID] }] }] },
      404, 'request_configurations.0.reviewer_stages.0.owner_ids.0');
    await refused({ request_configurations: [config, { ...config, priority: 1, condition: { group_ids: [NO_SUCH_ID] } }] },
      404, 'request_configurations.1.condition.group_ids.0');
  });

  it('validates settings: notification length, risk values, durations, ticket propagation', async () => {
    await refused({ custom_request_notification: 'x'.repeat(801) }, 400, 'custom_request_notification');
    await refused({ risk_sensitivity_override: 'SEVERE' }, 400, 'risk_sensitivity_override');
    await refused({ risk_sensitivity_override: 'high' }, 400, 'risk_sensitivity_override');
    await refused({ max_duration: 0 }, 400, 'max_duration');
    await refused({ max_duration: 1.5 }, 400, 'max_duration');
    await refused({ max_duration: 525961 }, 400, 'max_duration');
    await refused({ recommended_duration: -2 }, 400, 'recommended_duration');
    await refused({ max_duration: 60, recommended_duration: 120 }, 400, 'recommended_duration');
    await refused({ max_duration: 60, recommended_duration: -1 }, 400, 'recommended_duration');
    await refused({ extensions_duration_in_minutes: -1 }, 400, 'extensions_duration_in_minutes');
    await refused({ is_requestable: 'yes' }, 400, 'is_requestable');
    await refused({ ticket_propagation: { enabled_on_grant: true } }, 400, 'ticket_propagation.enabled_on_revocation');
    await refused({ ticket_propagation: { enabled_on_grant: true, enabled_on_revocation: true, ticket_provider: 'TRELLO' } }, 400, 'ticket_propagation.ticket_provider');
    await refused({ access_levels: [{ access_level_name: 'a', access_level_remote_id: '' }] }, 400, 'access_levels.0.access_level_remote_id');
    await refused({ access_levels: [{ access_level_name: 'a', access_level_remote_id: 'x' }, { access_level_name: 'b', access_level_remote_id: 'x' }] }, 400, 'access_levels');
    for (const risk of ['UNKNOWN', 'CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'NONE']) {
      const r = (await app.api.post('/resources', { name: unique('r'), resource_type: 'CUSTOM', app_id: appId, risk_sensitivity_override: risk })).body;
      assert.equal(r.risk_sensitivity, risk);
      assert.equal(r.risk_sensitivity_override, risk);
    }
  });

  it('validates request configurations: one default at priority 0, contiguous priorities, conditions elsewhere', async () => {
    const config = { allow_requests: true, auto_approval: false, require_mfa_to_request: false, require_support_ticket: false };
    await refused({ request_configurations: [{ ...config, priority: 0 }, { ...config, priority: 2, condition: { role_remote_ids: ['a'] } }] }, 400, 'request_configurations.1.priority');
    await refused({ request_configurations: [{ ...config, priority: 0 }, { ...config, priority: 0 }] }, 400, 'request_configurations.1.priority');
    await refused({ request_configurations: [{ ...config, priority: 0, condition: { role_remote_ids: ['a'] } }] }, 400, 'request_configurations.0.condition');
    await refused({ request_configurations: [{ ...config, priority: 0 }, { ...config, priority: 1 }] }, 400, 'request_configurations.1.condition');
    for (const empty of [{}, { group_ids: [] }, { group_ids: [], role_remote_ids: [] }]) {
      await refused({ request_configurations: [{ ...config, priority: 0 }, { ...config, priority: 1, condition: empty }] }, 400, 'request_configurations.1.condition');
    }
    await refused({ request_configurations: [{ ...config }] }, 400, 'request_configurations.0.priority');
    await refused({ request_configurations: [{ ...config, priority: 0, reviewer_stages: [{ stage: 1, operator: 'XOR', require_manager_approval: false, owner_ids: [] }] }] },
      400, 'request_configurations.0.reviewer_stages.0.operator');
    // The default configuration sets the top-level fields it mirrors; a disagreeing top-level value is
    // accepted (Terraform sends both) and the configuration's wins (docs/resources.md).
    const both = await app.api.post('/resources', {
      name: unique('r'), resource_type: 'CUSTOM', app_id: appId, auto_approval: false, request_configurations: [{ ...config, auto_approval: true, priority: 0 }],
    });
    assert.equal(both.status, 200, JSON.stringify(both.body));
    assert.equal(both.body.auto_approval, true);
    const group = (await app.api.post('/groups', { name: unique('g'), group_type: 'OPAL_GROUP', app_id: appId })).body;
    const res = await app.api.post('/resources', {
      name: unique('r'), resource_type: 'CUSTOM', app_id: appId, auto_approval: true,
      request_configurations: [
        { ...config, auto_approval: true, max_duration_minutes: 120, priority: 0 },
        { ...config, priority: 1, condition: { group_ids: [group.group_id] }, max_duration_minutes: 60 },
      ],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.auto_approval, true);
    assert.equal(res.body.max_duration, 120);
    assert.deepEqual(res.body.request_configurations.map((c: { priority: number }) => c.priority), [0, 1]);
    assert.deepEqual(res.body.request_configurations[1].condition, { group_ids: [group.group_id] });
  });

  describe('metadata (deprecated JSON text)', () => {
    const valid: [string, Record<string, Record<string, string>>][] = [
      ['AWS_EC2_INSTANCE', { aws_ec2_instance: { instance_id: 'i-1', region: 'us-east-2' } }],
      ['AWS_EKS_CLUSTER', { aws_eks_cluster: { cluster_name: 'c', cluster_region: 'us-east-2', cluster_arn: 'arn:c' } }],
      ['AWS_RDS_MYSQL_INSTANCE', { aws_rds_instance: { instance_id: 'db', engine: 'mysql', region: 'r', resource_id: 'x', database_name: 'd' } }],
      ['AWS_IAM_ROLE', { aws_role: { arn: 'arn:aws:iam::1:role/R', name: 'R' } }],
      ['GCP_BUCKET', { gcp_bucket: { bucket_id: 'b' } }],
      ['GCP_CLOUD_SQL_POSTGRES_INSTANCE', { gcp_sql_instance: { instance_id: 'i', project_id: 'p' } }],
      ['GIT_HUB_REPO', { git_hub_repo: { org_name: 'o', repo_name: 'r' } }],
      ['OKTA_APP', { okta_directory_app: { app_id: 'a', logo_url: 'https://x' } }],
      ['OKTA_ROLE', { okta_directory_role: { role_type: 'SUPER_ADMIN', role_id: 'r' } }],
      ['SALESFORCE_PROFILE', { salesforce_profile: { user_license: 'Salesforce' } }],
    ];
    it('accepts each kind with exactly its fields and returns the text as given', async () => {
      assert.equal(Object.keys(RESOURCE_METADATA_KINDS).length, 14);
      for (const [type, value] of valid) {
        const metadata = JSON.stringify(value, null, 2);
        const res = await app.api.post('/resources', { name: unique('m'), resource_type: type, app_id: appId, metadata });
        assert.equal(res.status, 200, `${type}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.metadata, metadata);
      }
    });
    it('refuses anything else with 400 naming metadata and saying what is wrong', async () => {
      const cases: [string, unknown, RegExp][] = [
        ['GCP_BUCKET', '{"gcp_bucket": {"bucket_id": "b",}}', /JSON/],
        ['GCP_BUCKET', '["gcp_bucket"]', /object/],
        ['GCP_BUCKET', '"gcp_bucket"', /object/],
        ['GCP_BUCKET', '{}', /exactly one property/],
        ['GCP_BUCKET', JSON.stringify({ gcp_bucket: { bucket_id: 'b' }, gcp_folder: { folder_id: 'f' } }), /exactly one property/],
        ['GCP_BUCKET', JSON.stringify({ gcp_buckets: { bucket_id: 'b' } }), /gcp_buckets.*not a known kind/],
        ['GCP_BUCKET', JSON.stringify({ gcp_bucket: { bucket_id: 'b', region: 'x' } }), /gcp_bucket.region.*not a field/],
        ['AWS_EC2_INSTANCE', JSON.stringify({ aws_ec2_instance: { instance_id: 'i' } }), /aws_ec2_instance.region.*required/],
        ['GCP_BUCKET', JSON.stringify({ gcp_bucket: { bucket_id: 7 } }), /gcp_bucket.bucket_id.*string/],
        ['GCP_BUCKET', JSON.stringify({ gcp_bucket: 'b' }), /gcp_bucket.*object/],
        ['AWS_IAM_ROLE', JSON.stringify({ gcp_bucket: { bucket_id: 'b' } }), /describes GCP_BUCKET, not AWS_IAM_ROLE/],
        // AwsPermissionSetMetadata is remote_info's shape, not one of the metadata schema's kinds.
        ['AWS_SSO_PERMISSION_SET', JSON.stringify({ aws_permission_set: { arn: 'a', account_id: '1' } }), /not a known kind/],
      ];
      for (const [type, metadata, message] of cases) await refused({ resource_type: type, metadata }, 400, 'metadata', message);
      await refused({ metadata: { gcp_bucket: { bucket_id: 'b' } } }, 400, 'metadata');
    });
  });

  describe('remote_info', () => {
    it('accepts a kind with its required fields, optional ones, booleans and enums', async () => {
      const cases: [string, Record<string, unknown>][] = [
        ['AWS_IAM_ROLE', { aws_iam_role: { arn: 'arn:r' } }],
        ['AWS_RDS_POSTGRES_CLUSTER', { aws_rds_cluster: { cluster_id: 'c', region: 'r', resource_id: 'x', account_id: '1', database_name: 'd', engine: 'POSTGRESQL' } }],
        ['CUSTOM_CONNECTOR', { custom_connector: { remote_resource_id: 'x', can_have_usage_events: false } }],
        ['OKTA_ROLE', { okta_custom_role: { role_id: 'r' } }],
        ['GIT_HUB_REPO', { github_repo: { repo_name: 'r' } }],
      ];
      for (const [type, remote_info] of cases) {
        const res = await app.api.post('/resources', { name: unique('ri'), resource_type: type, app_id: appId, remote_info });
        assert.equal(res.status, 200, `${type}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(res.body.remote_info, remote_info);
      }
    });
    it('refuses unknown kinds, extra or missing fields, wrong types and a kind for another resource type', async () => {
      await refused({ resource_type: 'AWS_IAM_ROLE', remote_info: { aws_iam_role: { arn: 'a', region: 'x' } } }, 400, 'remote_info.aws_iam_role.region');
      await refused({ resource_type: 'AWS_IAM_ROLE', remote_info: { aws_iam_role: { account_id: '1' } } }, 400, 'remote_info.aws_iam_role.arn');
      await refused({ resource_type: 'AWS_RDS_MYSQL_CLUSTER', remote_info: { aws_rds_cluster: { cluster_id: 'c', region: 'r', resource_id: 'x', account_id: '1', database_name: 'd', engine: 'ORACLE' } } },
        400, 'remote_info.aws_rds_cluster.engine');
      await refused({ resource_type: 'CUSTOM_CONNECTOR', remote_info: { custom_connector: { remote_resource_id: 'x', can_have_usage_events: 'no' } } }, 400, 'remote_info.custom_connector.can_have_usage_events');
      await refused({ resource_type: 'AWS_IAM_ROLE', remote_info: { aws_role: { arn: 'a' } } }, 400, 'remote_info.aws_role');
      await refused({ resource_type: 'AWS_IAM_ROLE', remote_info: { aws_iam_role: { arn: 'a' }, gcp_bucket: { bucket_id: 'b' } } }, 400, 'remote_info');
      await refused({ resource_type: 'CUSTOM', remote_info: { gcp_bucket: { bucket_id: 'b' } } }, 400, 'remote_info.gcp_bucket');
      await refused({ resource_type: 'AWS_IAM_ROLE', remote_info: 'arn:r' }, 400, 'remote_info');
    });
    it('maps every kind to resource types of the enumeration', () => {
      for (const table of [RESOURCE_REMOTE_INFO_KINDS, RESOURCE_METADATA_KINDS]) {
        for (const [kind, spec] of Object.entries(table)) {
          for (const type of spec.types) assert.ok((RESOURCE_TYPES as readonly string[]).includes(type), `${kind} → ${type}`);
        }
      }
    });
  });
});
