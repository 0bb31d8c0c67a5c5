// Reviewer stages and reviewers of resources and groups through HTTP: GET/PUT …/reviewer-stages and
// …/reviewers, and stage numbers left out of request_configurations.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createGroup, createOwner, createResource, createUser, NO_SUCH_ID, unique } from '../helpers/fixtures.ts';
import { errorPaths } from '../helpers/errors.ts';
import { readEvents } from '../helpers/events.ts';

const KINDS = [
  { kind: 'resource', plural: 'resources', idOf: (x: { resource_id?: string; group_id?: string }) => x.resource_id!, event: 'RESOURCES_UPDATED', make: createResource },
  { kind: 'group', plural: 'groups', idOf: (x: { resource_id?: string; group_id?: string }) => x.group_id!, event: 'GROUPS_UPDATED', make: createGroup },
] as const;

describe('reviewer stages and reviewers', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  for (const { kind, plural, idOf, event, make } of KINDS) {
    describe(plural, () => {
      const item = async () => idOf(await make(app.api));
      const shown = async (id: string) => (await app.api.get(`/${plural}/${id}`)).body.request_configurations[0].reviewer_stages;

      it('refuses changing the stages of an item linked to a configuration template (409), accepting the same stages', async () => {
        const owner = await createOwner(app.api);
        const stages = [{ stage: 1, operator: 'OR', require_manager_approval: false, require_admin_approval: false, owner_ids: [owner.owner_id], service_user_ids: [] }];
        const template = await app.api.post('/configuration-templates', {
          name: unique('template'), admin_owner_id: owner.owner_id, visibility: { visibility: 'GLOBAL' }, require_mfa_to_approve: false, require_mfa_to_connect: false,
          request_configurations: [{ allow_requests: true, auto_approval: false, require_mfa_to_request: false, require_support_ticket: false, reviewer_stages: stages, priority: 0 }],
        });
        assert.equal(template.status, 200, JSON.stringify(template.body));
        const linked = idOf(await make(app.api, { configuration_template_id: template.body.configuration_template_id }));
        assert.deepEqual(await shown(linked), stages);
        const before = (await readEvents(app.api, { object: linked, type: event })).length;
        const other = await createOwner(app.api);
        const changed = await app.api.put(`/${plural}/${linked}/reviewer-stages`, { stages: [{ ...stages[0], owner_ids: [other.owner_id] }] });
        assert.equal(changed.status, 409, JSON.stringify(changed.body));
        assert.deepEqual(errorPaths(changed.body), ['stages']);
        const reviewers = await app.api.put(`/${plural}/${linked}/reviewers`, { reviewer_ids: [other.owner_id] });
        assert.equal(reviewers.status, 409);
        assert.deepEqual(errorPaths(reviewers.body), ['reviewer_ids']);
        assert.deepEqual(await shown(linked), stages, 'nothing changed');
        assert.equal((await readEvents(app.api, { object: linked, type: event })).length, before, 'nothing recorded');
        assert.equal((await app.api.put(`/${plural}/${linked}/reviewer-stages`, { stages })).status, 200, 'the same stages are accepted');
      });

      it('starts with no stages and no reviewers', async () => {
        const id = await item();
        const stages = await app.api.get(`/${plural}/${id}/reviewer-stages`);
        assert.equal(stages.status, 200);
        assert.deepEqual(stages.body, []);
        assert.deepEqual(await shown(id), []);
        assert.deepEqual((await app.api.get(`/${plural}/${id}/reviewers`)).body, []);
      });

      it('sets stages, numbering a stage sent without `stage` by its position, and shows them in the item', async () => {
        const id = await item();
        const [a, b] = [await createOwner(app.api), await createOwner(app.api)];
        const user = await createUser(app.api);
        const res = await app.api.put(`/${plural}/${id.toUpperCase()}/reviewer-stages`, { stages: [
          { operator: 'AND', require_manager_approval: true, owner_ids: [a.owner_id.toUpperCase(), b.owner_id] },
          { operator: 'OR', require_manager_approval: false, require_admin_approval: true, owner_ids: [b.owner_id], service_user_ids: [user.user_id] },
        ] });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const expected = [
          { stage: 1, operator: 'AND', require_manager_approval: true, require_admin_approval: false, owner_ids: [a.owner_id, b.owner_id], service_user_ids: [] },
          { stage: 2, operator: 'OR', require_manager_approval: false, require_admin_approval: true, owner_ids: [b.owner_id], service_user_ids: [user.user_id] },
        ];
        assert.deepEqual(res.body, expected);
        assert.deepEqual((await app.api.get(`/${plural}/${id}/reviewer-stages`)).body, expected);
        assert.deepEqual(await shown(id), expected);
        assert.deepEqual((await app.api.get(`/${plural}/${id}/reviewers`)).body, [a.owner_id, b.owner_id]);
        const recorded = await readEvents(app.api, { object: id, type: event });
        assert.equal(recorded.length, 1);
        // Recorded by the item's own area, as a direct update of it would be.
        const name = (await app.api.get(`/${plural}/${id}`)).body.name;
        assert.deepEqual(recorded[0]!.sub_events, [{ sub_event_type: event, [`${kind}_id`]: id, [`${kind}_name`]: name, updated_fields: 'reviewer_stages' }]);
      });

      it('keeps explicit stage numbers, and replaces only the default configuration\'s stages', async () => {
        const [a, b] = [await createOwner(app.api), await createOwner(app.api)];
        const group = await createGroup(app.api);
        const base = { allow_requests: true, auto_approval: false, require_mfa_to_request: false, require_support_ticket: false, max_duration_minutes: 60 };
        const conditional = { ...base, priority: 1, condition: { group_ids: [group.group_id] }, reviewer_stages: [{ operator: 'OR', require_manager_approval: false, owner_ids: [b.owner_id] }] };
        const id = idOf(await make(app.api, { request_configurations: [{ ...base, priority: 0 }, conditional] }));
        const res = await app.api.put(`/${plural}/${id}/reviewer-stages`, { stages: [
          { stage: 3, operator: 'OR', require_manager_approval: false, owner_ids: [a.owner_id] },
          { stage: 1, operator: 'AND', require_manager_approval: false, owner_ids: [] },
        ] });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(res.body.map((s: { stage: number }) => s.stage), [3, 1]);
        const after = (await app.api.get(`/${plural}/${id}`)).body;
        assert.deepEqual(after.request_configurations[0].reviewer_stages, res.body);
        assert.equal(after.max_duration, 60);
        assert.equal(after.request_configurations.length, 2);
        // The conditional configuration's stage was sent without `stage`: it took position 1.
        assert.deepEqual(after.request_configurations[1].reviewer_stages, [
          { stage: 1, operator: 'OR', require_manager_approval: false, require_admin_approval: false, owner_ids: [b.owner_id], service_user_ids: [] },
        ]);
      });

      it('refuses bad stages naming the field, and changes and records nothing', async () => {
        const id = await item();
        const owner = await createOwner(app.api);
        const stage = { operator: 'AND', require_manager_approval: false, owner_ids: [owner.owner_id] };
        assert.equal((await app.api.put(`/${plural}/${id}/reviewer-stages`, { stages: [stage] })).status, 200);
        const before = await shown(id);
        const eventsBefore = (await readEvents(app.api, { object: id, type: event })).length;
        const cases: [unknown, number, string][] = [
          [{ stages: [{ ...stage, stage: 2 }, stage] }, 400, 'stages.1.stage'],
          [{ stages: [stage, { ...stage, stage: 1 }] }, 400, 'stages.1.stage'],
          [{ stages: [{ ...stage, stage: 0 }] }, 400, 'stages.0.stage'],
          [{ stages: [{ ...stage, stage: 1.5 }] }, 400, 'stages.0.stage'],
          [{ stages: [{ ...stage, operator: 'XOR' }] }, 400, 'stages.0.operator'],
          [{ stages: [{ operator: 'AND', owner_ids: [] }] }, 400, 'stages.0.require_manager_approval'],
          [{ stages: [{ ...stage, owner_ids: ['nope'] }] }, 400, 'stages.0.owner_ids.0'],
          [{ stages: [stage, { ...stage, owner_ids: [owner.owner_id, NO_SUCH_ID] }] }, 404, 'stages.1.owner_ids.1'],
          [{ stages: [{ ...stage, service_user_ids: [NO_SUCH_ID] }] }, 404, 'stages.0.service_user_ids.0'],
          [{ stages: [{ ...stage, owner_ids: [owner.owner_id, owner.owner_id.toUpperCase()] }] }, 400, 'stages.0.owner_ids'],
          [{}, 400, 'stages'],
        ];
        for (const [body, status, path] of cases) {
          const res = await app.api.put(`/${plural}/${id}/reviewer-stages`, body);
          assert.equal(res.status, status, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`);
          assert.deepEqual(errorPaths(res.body), [path], JSON.stringify(body));
        }
        assert.deepEqual(await shown(id), before);
        assert.equal((await readEvents(app.api, { object: id, type: event })).length, eventsBefore);
      });

      it(`answers 404 for an unknown ${kind} and 400 for a malformed id`, async () => {
        for (const suffix of ['reviewer-stages', 'reviewers']) {
          assert.equal((await app.api.get(`/${plural}/${NO_SUCH_ID}/${suffix}`)).status, 404);
          assert.equal((await app.api.get(`/${plural}/not-a-uuid/${suffix}`)).status, 400);
        }
        assert.equal((await app.api.put(`/${plural}/${NO_SUCH_ID}/reviewer-stages`, { stages: [] })).status, 404);
        assert.equal((await app.api.put(`/${plural}/${NO_SUCH_ID}/reviewers`, { reviewer_ids: [] })).status, 404);
      });

      it('lists the reviewers of stages sent out of order in stage order', async () => {
        const id = await item();
        const [first, second] = [await createOwner(app.api), await createOwner(app.api)];
        const stage = (n: number, ownerId: string) => ({ stage: n, operator: 'OR', require_manager_approval: false, owner_ids: [ownerId] });
        assert.equal((await app.api.put(`/${plural}/${id}/reviewer-stages`, { stages: [stage(2, second.owner_id), stage(1, first.owner_id)] })).status, 200);
        assert.deepEqual((await app.api.get(`/${plural}/${id}/reviewers`)).body, [first.owner_id, second.owner_id]);
      });

      it('sets reviewers as one AND stage, and an empty list as no stage', async () => {
        const id = await item();
        const [a, b] = [await createOwner(app.api), await createOwner(app.api)];
        const res = await app.api.put(`/${plural}/${id}/reviewers`, { reviewer_ids: [b.owner_id, a.owner_id.toUpperCase()] });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(res.body, [b.owner_id, a.owner_id]);
        assert.deepEqual((await app.api.get(`/${plural}/${id}/reviewers`)).body, [b.owner_id, a.owner_id]);
        assert.deepEqual(await shown(id), [
          { stage: 1, operator: 'AND', require_manager_approval: false, require_admin_approval: false, owner_ids: [b.owner_id, a.owner_id], service_user_ids: [] },
        ]);
        const cleared = await app.api.put(`/${plural}/${id}/reviewers`, { reviewer_ids: [] });
        assert.deepEqual(cleared.body, []);
        assert.deepEqual(await shown(id), []);
        assert.equal((await readEvents(app.api, { object: id, type: event })).length, 2);
      });

      it('refuses a repeated or unknown reviewer naming reviewer_ids.N, and changes nothing', async () => {
        const id = await item();
        const owner = await createOwner(app.api);
        assert.equal((await app.api.put(`/${plural}/${id}/reviewers`, { reviewer_ids: [owner.owner_id] })).status, 200);
        const cases: [unknown, number, string][] = [
          [{ reviewer_ids: [owner.owner_id, owner.owner_id.toUpperCase()] }, 400, 'reviewer_ids.1'],
          [{ reviewer_ids: [owner.owner_id, NO_SUCH_ID] }, 404, 'reviewer_ids.1'],
          [{ reviewer_ids: ['x'] }, 400, 'reviewer_ids.0'],
          [{ reviewer_ids: 'x' }, 400, 'reviewer_ids'],
        ];
        for (const [body, status, path] of cases) {
          const res = await app.api.put(`/${plural}/${id}/reviewers`, body);
          assert.equal(res.status, status, JSON.stringify(res.body));
          assert.deepEqual(errorPaths(res.body), [path]);
        }
        assert.deepEqual((await app.api.get(`/${plural}/${id}/reviewers`)).body, [owner.owner_id]);
        assert.equal((await readEvents(app.api, { object: id, type: event })).length, 1);
      });

      it(`numbers stages sent without \`stage\` in request_configurations on POST and PUT /${plural}`, async () => {
        const owner = await createOwner(app.api);
        const config = { allow_requests: true, auto_approval: false, require_mfa_to_request: false, require_support_ticket: false, priority: 0 };
        const stage = { operator: 'AND', require_manager_approval: false, owner_ids: [owner.owner_id] };
        const id = idOf(await make(app.api, { request_configurations: [{ ...config, reviewer_stages: [stage, stage] }] }));
        assert.deepEqual((await shown(id)).map((s: { stage: number }) => s.stage), [1, 2]);
        const clash = await app.api.put(`/${plural}`, { [plural]: [{ [`${kind}_id`]: id, request_configurations: [{ ...config, reviewer_stages: [stage, { ...stage, stage: 1 }] }] }] });
        assert.equal(clash.status, 400);
        assert.equal(clash.body.details[0].path, `${plural}.0.request_configurations.0.reviewer_stages.1.stage`);
      });
    });
  }
});
