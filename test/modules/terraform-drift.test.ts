// What Terraform's provider writes, Gatehouse reads back the same (issue 40): a containing group's
// duration_minutes, both duration fields of PUT /resources and /groups, request configurations in the
// order written, and a configuration template's request_configuration_id.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createGroup, createOwner, createResource, unique } from '../helpers/fixtures.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('Terraform reads back what it wrote', () => {
  let app: TestApp;
  let ownerId: string;
  let conditionGroupId: string;
  before(async () => {
    app = await startTestApp();
    ownerId = (await createOwner(app.api)).owner_id;
    conditionGroupId = (await createGroup(app.api)).group_id;
  });
  after(() => app.close());

  it("a containing group answers the duration_minutes it was given, in every answer, as the clock moves", async () => {
    const inner = (await createGroup(app.api)).group_id;
    const timed = (await createGroup(app.api)).group_id;
    const forever = (await createGroup(app.api)).group_id;
    const posted = await app.api.post(`/groups/${inner}/containing-groups`, { containing_group_id: timed, duration_minutes: 120 });
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    assert.equal(posted.body.duration_minutes, 120);
    const indefinite = await app.api.post(`/groups/${inner}/containing-groups`, { containing_group_id: forever });
    assert.equal(indefinite.body.duration_minutes, 0, 'no duration given: 0, the reference\'s "indefinite"');
    app.clock.advance(45 * 60_000);
    const one = await app.api.get(`/groups/${inner}/containing-groups/${timed}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.duration_minutes, 120, 'the duration written, not what is left of it');
    const list = await app.api.get(`/groups/${inner}/containing-groups`);
    const byId = new Map(list.body.containing_groups.map((c: { containing_group_id: string; duration_minutes: number }) => [c.containing_group_id, c.duration_minutes]));
    assert.deepEqual(Object.fromEntries(byId), { [timed]: 120, [forever]: 0 });
  });

  for (const kind of ['resources', 'groups'] as const) {
    const idField = kind === 'resources' ? 'resource_id' : 'group_id';
    const create = (kind === 'resources' ? createResource : createGroup);

    it(`PUT /${kind}: a top-level extensions_duration_in_minutes beside the default configuration's other one is accepted, each read back as written`, async () => {
      const id = (await create(app.api, { admin_owner_id: ownerId }) as Record<string, string>)[idField]!;
      const res = await app.api.put(`/${kind}`, {
        [kind]: [{
          [idField]: id,
          extensions_duration_in_minutes: 120,
          request_configurations: [{
            priority: 0, allow_requests: true, auto_approval: false, require_mfa_to_request: false, require_support_ticket: false,
            max_duration_minutes: 240, recommended_duration_minutes: 60, extensions_duration_in_minutes: 30, reviewer_stages: [],
          }],
        }],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const read = (await app.api.get(`/${kind}/${id}`)).body;
      assert.equal(read.extensions_duration_in_minutes, 120);
      assert.equal(read.request_configurations[0].extensions_duration_in_minutes, 30);
      assert.equal(read.request_configuration_list[0].extensions_duration_in_minutes, 30);
      // A deprecated top-level field that disagrees is accepted too; the configuration's value wins and reads back.
      const other = await app.api.put(`/${kind}`, {
        [kind]: [{
          [idField]: id, max_duration: 600,
          request_configurations: [{ ...read.request_configurations[0], max_duration_minutes: 180 }],
        }],
      });
      assert.equal(other.status, 200, JSON.stringify(other.body));
      const after = (await app.api.get(`/${kind}/${id}`)).body;
      assert.equal(after.max_duration, 180);
      assert.equal(after.request_configurations[0].max_duration_minutes, 180);
      assert.equal(after.extensions_duration_in_minutes, 30, 'not given beside the configurations: it reads the default configuration\'s');
      // Given alone, the top-level one still sets the default configuration's, as it always did.
      assert.equal((await app.api.put(`/${kind}`, { [kind]: [{ [idField]: id, extensions_duration_in_minutes: 15 }] })).status, 200);
      const alone = (await app.api.get(`/${kind}/${id}`)).body;
      assert.equal(alone.extensions_duration_in_minutes, 15);
      assert.equal(alone.request_configurations[0].extensions_duration_in_minutes, 15);
    });

    it(`PUT /${kind}: request configurations read back in the order written`, async () => {
      const id = (await create(app.api, { admin_owner_id: ownerId }) as Record<string, string>)[idField]!;
      const base = { allow_requests: true, auto_approval: false, require_mfa_to_request: false, require_support_ticket: false, reviewer_stages: [] };
      const written = [
        { ...base, priority: 2, condition: { group_ids: [conditionGroupId] }, max_duration_minutes: 60, recommended_duration_minutes: 30 },
        { ...base, priority: 0, max_duration_minutes: 480, recommended_duration_minutes: 60 },
        { ...base, priority: 1, condition: { role_remote_ids: ['admin'] }, auto_approval: true, max_duration_minutes: 120, recommended_duration_minutes: 60 },
      ];
      const res = await app.api.put(`/${kind}`, { [kind]: [{ [idField]: id, request_configurations: written }] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      for (const answer of [res.body[kind][0], (await app.api.get(`/${kind}/${id}`)).body]) {
        assert.deepEqual(answer.request_configurations.map((c: { priority: number }) => c.priority), [2, 0, 1]);
        // The bulk update's answer leaves out the deprecated list (UpdateResourceInfo types it as an object).
        if (answer.request_configuration_list) assert.deepEqual(answer.request_configuration_list.map((c: { priority: number }) => c.priority), [2, 0, 1]);
        assert.deepEqual(answer.request_configurations[0].condition, { group_ids: [conditionGroupId] });
      }
    });
  }

  it('a configuration template answers a request_configuration_id, the same on every read, its own, and its configurations in the order written', async () => {
    const base = { allow_requests: true, auto_approval: false, require_mfa_to_request: false, require_support_ticket: false, reviewer_stages: [] };
    const make = async () => {
      const res = await app.api.post('/configuration-templates', {
        name: unique('template'), admin_owner_id: ownerId, visibility: { visibility: 'GLOBAL' }, require_mfa_to_approve: false, require_mfa_to_connect: false,
        request_configurations: [{ ...base, priority: 1, condition: { group_ids: [conditionGroupId] } }, { ...base, priority: 0 }],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    };
    const first = await make();
    const second = await make();
    assert.match(first.request_configuration_id, UUID);
    assert.notEqual(first.request_configuration_id, second.request_configuration_id);
    assert.deepEqual(first.request_configurations.map((c: { priority: number }) => c.priority), [1, 0]);
    const updated = await app.api.put('/configuration-templates', { configuration_template_id: first.configuration_template_id, name: unique('renamed') });
    assert.equal(updated.body.request_configuration_id, first.request_configuration_id);
    const listed = (await app.api.get('/configuration-templates')).body.results
      .find((t: { configuration_template_id: string }) => t.configuration_template_id === first.configuration_template_id);
    assert.equal(listed.request_configuration_id, first.request_configuration_id);
  });
});
