// remote_info, the recommended way to register a remote item, names the remote id as the deprecated
// fields did: remote_resource_id / remote_id in answers, and the remote_id list filter finds it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createGroup, createResource } from '../helpers/fixtures.ts';

describe('remote_info', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it('a resource registered with remote_info answers its remote_resource_id and is found by remote_id', async () => {
    const { app_id } = await createApp(app.api, { app_type: 'AWS' });
    const cases: [type: string, remoteInfo: Record<string, unknown>, remoteId: string][] = [
      ['AWS_ACCOUNT', { aws_account: { account_id: '123456789012' } }, '123456789012'],
      ['AWS_IAM_ROLE', { aws_iam_role: { arn: 'arn:aws:iam::123456789012:role/ops', account_id: '123456789012' } }, 'arn:aws:iam::123456789012:role/ops'],
      ['GCP_BIG_QUERY_TABLE', { gcp_big_query_table: { project_id: 'p', dataset_id: 'd', table_id: 't' } }, 'p.d.t'],
      ['SNOWFLAKE_SCHEMA', { snowflake_schema: { database_name: 'DB', schema_name: 'PUBLIC' } }, 'DB.PUBLIC'],
    ];
    for (const [resource_type, remote_info, remoteId] of cases) {
      const created = await createResource(app.api, { app_id, resource_type, remote_info }) as Record<string, unknown>;
      assert.equal(created.remote_resource_id, remoteId, resource_type);
      assert.equal((await app.api.get(`/resources/${created.resource_id}`)).body.remote_resource_id, remoteId);
      const found = await app.api.get('/resources', { remote_id: remoteId, resource_type_filter: resource_type });
      assert.deepEqual(found.body.results.map((r: { resource_id: string }) => r.resource_id), [created.resource_id], resource_type);
    }
    // The deprecated field, when given too, still wins.
    const both = await createResource(app.api, { app_id, resource_type: 'AWS_ACCOUNT', remote_info: { aws_account: { account_id: '999' } }, remote_resource_id: 'explicit' }) as Record<string, unknown>;
    assert.equal(both.remote_resource_id, 'explicit');
  });

  it('a group registered with remote_info answers its remote_id', async () => {
    const { app_id } = await createApp(app.api, { app_type: 'OKTA_DIRECTORY' });
    const okta = await createGroup(app.api, { app_id, group_type: 'OKTA_GROUP', remote_info: { okta_group: { group_id: '00g1abcd' } } }) as Record<string, unknown>;
    assert.equal(okta.remote_id, '00g1abcd');
    assert.equal((await app.api.get(`/groups/${okta.group_id}`)).body.remote_id, '00g1abcd');
    const team = await createGroup(app.api, { app_id, group_type: 'GIT_HUB_TEAM', remote_info: { github_team: { team_slug: 'sre', org_name: 'acme' } } }) as Record<string, unknown>;
    assert.equal(team.remote_id, 'sre');
  });
});
