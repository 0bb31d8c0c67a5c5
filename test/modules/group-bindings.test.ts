// Group bindings through HTTP: create, read, page, bulk update, delete, the group side, events.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createGroup, NO_SUCH_ID } from '../helpers/fixtures.ts';
import { errorPaths } from '../helpers/errors.ts';
import { countEvents, readEvents } from '../helpers/events.ts';

describe('group bindings', () => {
  let app: TestApp;
  let appId: string;
  before(async () => {
    app = await startTestApp();
    appId = (await createApp(app.api)).app_id;
  });
  after(() => app.close());

  const group = async (group_type = 'OPAL_GROUP') => (await createGroup(app.api, { app_id: appId, group_type })).group_id;
  /** `n` new groups (at most 5), typed so that destructuring them needs no checks. */
  const groups = async (n: 2 | 3 | 5) =>
    (await Promise.all(Array.from({ length: n }, () => group()))) as [string, string, string, string, string];
  const bind = async (source: string, ids: string[]) => {
    const res = await app.api.post('/group-bindings', { source_group_id: source, groups: ids.map((group_id) => ({ group_id })) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { group_binding_id: string; created_at: string; groups: { group_id: string; group_type: string }[] };
  };

  describe('POST /group-bindings', () => {
    it('binds groups in the order given, each with its group_type, readable by id, in the list and from each group', async () => {
      const okta = await group('OKTA_GROUP');
      const aws = await group('AWS_SSO_GROUP');
      const res = await app.api.post('/group-bindings', { source_group_id: okta.toUpperCase(), groups: [{ group_id: aws }, { group_id: okta }] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const { group_binding_id: id, ...fields } = res.body;
      assert.deepEqual(fields, {
        created_by_id: app.adminUserId,
        created_at: app.clock.now().toISOString(),
        source_group_id: okta,
        groups: [{ group_id: aws, group_type: 'AWS_SSO_GROUP' }, { group_id: okta, group_type: 'OKTA_GROUP' }],
      });
      assert.deepEqual((await app.api.get(`/group-bindings/${id}`)).body, res.body);
      assert.deepEqual((await app.api.get(`/group-bindings/${id.toUpperCase()}`)).body, res.body);
      const listed = (await app.api.get('/group-bindings', { page_size: 1000 })).body.results;
      assert.deepEqual(listed.find((b: { group_binding_id: string }) => b.group_binding_id === id), res.body);

      for (const g of [okta, aws]) assert.equal((await app.api.get(`/groups/${g}`)).body.group_binding_id, id);
      const groupList = (await app.api.get('/groups', { group_ids: [okta, aws] })).body.results;
      assert.deepEqual(groupList.map((g: { group_binding_id: string }) => g.group_binding_id), [id, id]);
      assert.equal('group_binding_id' in (await app.api.get(`/groups/${await group()}`)).body, false, 'an unbound group has none');

      const [event] = await readEvents(app.api, { object: id, type: 'GROUP_BINDINGS_CREATED' });
      assert.ok(event);
      assert.deepEqual(event.sub_events.map((s) => [s.sub_event_type, s.group_id ?? s.source_group_id]), [
        ['GROUP_BINDINGS_CREATED', okta], ['GROUP_BINDING_GROUPS_ADDED', aws], ['GROUP_BINDING_GROUPS_ADDED', okta],
      ]);
      assert.equal((await readEvents(app.api, { object: aws, type: 'GROUP_BINDINGS_CREATED' })).length, 1, 'findable from a bound group too');
    });

    it('names every invalid field with 400 and records nothing', async () => {
      const [a, b] = await groups(2);
      const cases: [unknown, string[]][] = [
        [{}, ['groups', 'source_group_id']],
        [{ source_group_id: 'x', groups: [{ group_id: a }, { group_id: b }] }, ['source_group_id']],
        [{ source_group_id: a, groups: 'all' }, ['groups']],
        [{ source_group_id: a, groups: [{ group_id: a }] }, ['groups']],
        [{ source_group_id: a, groups: [{ group_id: a }, { group_id: 'nope' }] }, ['groups.1.group_id']],
        [{ source_group_id: a, groups: [{ group_id: a }, {}] }, ['groups.1.group_id']],
        [{ source_group_id: a, groups: [{ group_id: a }, { group_id: b.toUpperCase() }, { group_id: b }] }, ['groups.2.group_id']],
        [{ source_group_id: NO_SUCH_ID, groups: [{ group_id: a }, { group_id: b }] }, ['source_group_id']],
        [{ source_group_id: a, groups: Array.from({ length: 101 }, () => ({ group_id: a })) }, ['groups']],
      ];
      const before = await countEvents(app.api, { type: 'GROUP_BINDINGS_CREATED' });
      for (const [body, expected] of cases) {
        const res = await app.api.post('/group-bindings', body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.code, 'validation_failed');
        assert.deepEqual(errorPaths(res.body), expected, JSON.stringify(body));
      }
      assert.equal(await countEvents(app.api, { type: 'GROUP_BINDINGS_CREATED' }), before);
      assert.equal('group_binding_id' in (await app.api.get(`/groups/${a}`)).body, false);
    });

    it('404s naming groups.N.group_id for an unknown group, binding nothing', async () => {
      const [a, b] = await groups(2);
      const res = await app.api.post('/group-bindings', { source_group_id: a, groups: [{ group_id: a }, { group_id: b }, { group_id: NO_SUCH_ID }] });
      assert.equal(res.status, 404);
      assert.deepEqual(errorPaths(res.body), ['groups.2.group_id']);
      assert.equal('group_binding_id' in (await app.api.get(`/groups/${a}`)).body, false);
    });

    it('refuses a group that already belongs to a binding with 409 naming it, binding nothing', async () => {
      const [a, b, c] = await groups(3);
      const first = await bind(a, [a, b]);
      const before = await countEvents(app.api, { type: 'GROUP_BINDINGS_CREATED' });
      const res = await app.api.post('/group-bindings', { source_group_id: c, groups: [{ group_id: c }, { group_id: b }] });
      assert.equal(res.status, 409);
      assert.equal(res.body.code, 'conflict');
      assert.deepEqual(errorPaths(res.body), ['groups.1.group_id']);
      assert.match(res.body.message, new RegExp(first.group_binding_id));
      assert.equal(await countEvents(app.api, { type: 'GROUP_BINDINGS_CREATED' }), before);
      assert.equal('group_binding_id' in (await app.api.get(`/groups/${c}`)).body, false);
    });
  });

  describe('GET /group-bindings', () => {
    it('pages through every binding exactly once, oldest first', async () => {
      for (let i = 0; i < 3; i++) {
        const [x, y] = await groups(2);
        await bind(x, [x, y]);
      }
      const everything = (await app.api.get('/group-bindings', { page_size: 1000 })).body.results.map((b: { group_binding_id: string }) => b.group_binding_id);
      assert.ok(everything.length >= 3);
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const res = await app.api.get('/group-bindings', { page_size: 2, cursor });
        assert.equal(res.status, 200);
        assert.equal(res.body.previous, cursor ?? null);
        seen.push(...res.body.results.map((b: { group_binding_id: string }) => b.group_binding_id));
        cursor = res.body.next ?? undefined;
      } while (cursor !== undefined);
      assert.deepEqual(seen, everything);
    });

    it('400s on a bad cursor or page_size, and 400/404 on a bad or unknown id', async () => {
      assert.deepEqual(errorPaths((await app.api.get('/group-bindings', { cursor: 'garbage' })).body), ['cursor']);
      assert.deepEqual(errorPaths((await app.api.get('/group-bindings', { page_size: 1001 })).body), ['page_size']);
      const bad = await app.api.get('/group-bindings/not-a-uuid');
      assert.equal(bad.status, 400);
      assert.deepEqual(errorPaths(bad.body), ['group_binding_id']);
      const unknown = await app.api.get(`/group-bindings/${NO_SUCH_ID}`);
      assert.equal(unknown.status, 404);
      assert.deepEqual(errorPaths(unknown.body), ['group_binding_id']);
    });
  });

  describe('PUT /group-bindings', () => {
    it('replaces source and groups of several bindings at once; groups may move between them', async () => {
      const [a, b, c, d, e] = await groups(5);
      const one = await bind(a, [a, b]);
      const two = await bind(c, [c, d]);
      // b moves from one to two; e joins one; d leaves two.
      const res = await app.api.put('/group-bindings', {
        group_bindings: [
          { group_binding_id: one.group_binding_id, source_group_id: e, groups: [{ group_id: a }, { group_id: e }] },
          { group_binding_id: two.group_binding_id.toUpperCase(), source_group_id: b, groups: [{ group_id: b }, { group_id: c }] },
        ],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const after1 = (await app.api.get(`/group-bindings/${one.group_binding_id}`)).body;
      const after2 = (await app.api.get(`/group-bindings/${two.group_binding_id}`)).body;
      assert.deepEqual(res.body.group_bindings, [after1, after2]);
      assert.equal(after1.source_group_id, e);
      assert.deepEqual(after1.groups.map((g: { group_id: string }) => g.group_id), [a, e]);
      assert.equal(after2.source_group_id, b);
      assert.deepEqual(after2.groups.map((g: { group_id: string }) => g.group_id), [b, c]);
      assert.equal(after1.created_at, one.created_at, 'created_at stays');
      assert.equal((await app.api.get(`/groups/${b}`)).body.group_binding_id, two.group_binding_id);
      assert.equal('group_binding_id' in (await app.api.get(`/groups/${d}`)).body, false);

      const [event] = await readEvents(app.api, { object: one.group_binding_id, type: 'GROUP_BINDINGS_UPDATED' });
      assert.ok(event);
      const changes = event.sub_events.map((s) => `${s.sub_event_type}:${s.group_id ?? ''}`).sort();
      assert.deepEqual(changes, [
        `GROUP_BINDINGS_UPDATED:`, `GROUP_BINDINGS_UPDATED:`,
        `GROUP_BINDING_GROUPS_ADDED:${b}`, `GROUP_BINDING_GROUPS_ADDED:${e}`,
        `GROUP_BINDING_GROUPS_REMOVED:${b}`, `GROUP_BINDING_GROUPS_REMOVED:${d}`,
      ].sort());
    });

    it('is all or nothing: one bad item leaves every binding as it was, recording nothing', async () => {
      const [a, b, c, d, x] = await groups(5);
      const one = await bind(a, [a, b]);
      const two = await bind(c, [c, d]);
      const snapshot = async () => [
        (await app.api.get(`/group-bindings/${one.group_binding_id}`)).body, (await app.api.get(`/group-bindings/${two.group_binding_id}`)).body,
      ];
      const before = await snapshot();
      const beforeEvents = await countEvents(app.api, { type: 'GROUP_BINDINGS_UPDATED' });
      const item = (id: string, source: string, ids: string[]) => ({ group_binding_id: id, source_group_id: source, groups: ids.map((group_id) => ({ group_id })) });
      const cases: [unknown, number, string[]][] = [
        [{}, 400, ['group_bindings']],
        [{ group_bindings: [item(one.group_binding_id, a, [a, x]), item(two.group_binding_id, x, [c, d])] }, 400, ['group_bindings.1.source_group_id']],
        [{ group_bindings: [item(one.group_binding_id, a, [a, x]), item(one.group_binding_id, a, [a, b])] }, 400, ['group_bindings.1.group_binding_id']],
        [{ group_bindings: [item(one.group_binding_id, a, [a, x]), item(NO_SUCH_ID, c, [c, d])] }, 404, ['group_bindings.1.group_binding_id']],
        [{ group_bindings: [item(one.group_binding_id, a, [a, x]), item(two.group_binding_id, c, [c, NO_SUCH_ID])] }, 404, ['group_bindings.1.groups.1.group_id']],
        // x claimed by both bindings in the end state
        [{ group_bindings: [item(one.group_binding_id, a, [a, x]), item(two.group_binding_id, c, [c, x])] }, 409, ['group_bindings.1.groups.1.group_id']],
        // c stays in binding two (not listed), so binding one cannot take it
        [{ group_bindings: [item(one.group_binding_id, a, [a, c])] }, 409, ['group_bindings.0.groups.1.group_id']],
      ];
      for (const [body, status, expected] of cases) {
        const res = await app.api.put('/group-bindings', body);
        assert.equal(res.status, status, JSON.stringify(body));
        assert.deepEqual(errorPaths(res.body), expected, JSON.stringify(body));
      }
      assert.deepEqual(await snapshot(), before);
      assert.equal(await countEvents(app.api, { type: 'GROUP_BINDINGS_UPDATED' }), beforeEvents);
      assert.equal('group_binding_id' in (await app.api.get(`/groups/${x}`)).body, false);
    });

    it('an empty list changes and records nothing', async () => {
      const before = await countEvents(app.api, { type: 'GROUP_BINDINGS_UPDATED' });
      const res = await app.api.put('/group-bindings', { group_bindings: [] });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { group_bindings: [] });
      assert.equal(await countEvents(app.api, { type: 'GROUP_BINDINGS_UPDATED' }), before);
    });
  });

  describe('DELETE /group-bindings/{group_binding_id}', () => {
    it('unbinds the groups (they stay), records the event, and 404s once gone', async () => {
      const [a, b] = await groups(2);
      const binding = await bind(a, [a, b]);
      const res = await app.api.delete(`/group-bindings/${binding.group_binding_id}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {});
      assert.equal((await app.api.get(`/group-bindings/${binding.group_binding_id}`)).status, 404);
      for (const g of [a, b]) {
        const got = await app.api.get(`/groups/${g}`);
        assert.equal(got.status, 200);
        assert.equal('group_binding_id' in got.body, false);
      }
      const [event] = await readEvents(app.api, { object: binding.group_binding_id, type: 'GROUP_BINDINGS_DELETED' });
      assert.ok(event);
      assert.deepEqual(event.sub_events.filter((s) => s.sub_event_type === 'GROUP_BINDING_GROUPS_REMOVED').map((s) => s.group_id), [a, b]);
      // The groups are free again.
      await bind(b, [b, a]);

      const again = await app.api.delete(`/group-bindings/${binding.group_binding_id}`);
      assert.equal(again.status, 404);
      assert.deepEqual(errorPaths(again.body), ['group_binding_id']);
      assert.equal((await app.api.delete('/group-bindings/nope')).status, 400);
    });
  });

  describe('deleting a bound group', () => {
    it('is refused with 409 naming group_id until the group leaves its binding', async () => {
      const [a, b, c] = await groups(3);
      const binding = await bind(a, [a, b, c]);
      const before = await countEvents(app.api, { type: 'GROUPS_DELETED' });
      const refused = await app.api.delete(`/groups/${c}`);
      assert.equal(refused.status, 409);
      assert.deepEqual(errorPaths(refused.body), ['group_id']);
      assert.match(refused.body.message, new RegExp(binding.group_binding_id));
      assert.equal(await countEvents(app.api, { type: 'GROUPS_DELETED' }), before);

      const put = await app.api.put('/group-bindings', {
        group_bindings: [{ group_binding_id: binding.group_binding_id, source_group_id: a, groups: [{ group_id: a }, { group_id: b }] }],
      });
      assert.equal(put.status, 200);
      assert.equal((await app.api.delete(`/groups/${c}`)).status, 200);
      assert.equal((await app.api.get(`/groups/${c}`)).status, 404);
    });
  });

  it('a READ_ONLY token can read bindings but not write them', async () => {
    const token = await app.api.post('/tokens', { token_label: 'reader', access_level: 'READ_ONLY' });
    assert.equal(token.status, 200);
    const reader = app.api.as(token.body.token);
    assert.equal((await reader.get('/group-bindings')).status, 200);
    const [a, b] = await groups(2);
    const res = await reader.post('/group-bindings', { source_group_id: a, groups: [{ group_id: a }, { group_id: b }] });
    assert.equal(res.status, 403);
  });
});
