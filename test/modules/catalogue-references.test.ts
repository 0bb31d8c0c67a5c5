// Deleting a record that another record's request configuration still names is refused, so no
// later response can carry a dangling id; once the configuration lets go, the delete goes through.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createGroup, createOwner, createResource, createTag } from '../helpers/fixtures.ts';
import { countEvents } from '../helpers/events.ts';

const DEFAULT_CONFIG = { allow_requests: true, auto_approval: false, require_mfa_to_request: false, require_support_ticket: false, priority: 0 };

describe('references held in request configurations', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());


  it('an owner named as a reviewer cannot be deleted until the configuration drops it', async () => {
    const reviewer = await createOwner(app.api);
    const resource = await createResource(app.api);
    const stage = { stage: 1, operator: 'AND', require_manager_approval: false, owner_ids: [reviewer.owner_id] };
    const set = await app.api.put('/resources', { resources: [{ resource_id: resource.resource_id, request_configurations: [{ ...DEFAULT_CONFIG, reviewer_stages: [stage] }] }] });
    assert.equal(set.status, 200, JSON.stringify(set.body));

    const events = await countEvents(app.api, { object: reviewer.owner_id });
    const refused = await app.api.delete(`/owners/${reviewer.owner_id}`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.details[0].path, 'owner_id');
    assert.match(refused.body.message, /request configurations of 1 resource/);
    assert.equal((await app.api.get(`/owners/${reviewer.owner_id}`)).status, 200);
    assert.equal(await countEvents(app.api, { object: reviewer.owner_id }), events, 'a refused delete records nothing');

    await app.api.put('/resources', { resources: [{ resource_id: resource.resource_id, request_configurations: [DEFAULT_CONFIG] }] });
    assert.equal((await app.api.delete(`/owners/${reviewer.owner_id}`)).status, 200);
  });

  it('a group named in a configuration\'s condition cannot be deleted until the configuration drops it', async () => {
    const condition = await createGroup(app.api);
    const guarded = await createGroup(app.api);
    const configs = [DEFAULT_CONFIG, { ...DEFAULT_CONFIG, auto_approval: true, priority: 1, condition: { group_ids: [condition.group_id] } }];
    const set = await app.api.put('/groups', { groups: [{ group_id: guarded.group_id, request_configurations: configs }] });
    assert.equal(set.status, 200, JSON.stringify(set.body));

    const refused = await app.api.delete(`/groups/${condition.group_id}`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.details[0].path, 'group_id');
    assert.match(refused.body.message, /request configurations of 1 group/);
    assert.equal((await app.api.get(`/groups/${condition.group_id}`)).status, 200);

    await app.api.put('/groups', { groups: [{ group_id: guarded.group_id, request_configurations: [DEFAULT_CONFIG] }] });
    assert.equal((await app.api.delete(`/groups/${condition.group_id}`)).status, 200);
  });

  it('an owner that administers a tag cannot be deleted until the tag is gone', async () => {
    const owner = await createOwner(app.api);
    const tag = await createTag(app.api, { admin_owner_id: owner.owner_id });
    const refused = await app.api.delete(`/owners/${owner.owner_id}`);
    assert.equal(refused.status, 409);
    assert.match(refused.body.message, /1 tag\b/);
    assert.equal((await app.api.delete(`/tag/${tag.tag_id}`)).status, 200);
    assert.equal((await app.api.delete(`/owners/${owner.owner_id}`)).status, 200);
  });
});
