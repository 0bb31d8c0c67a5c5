// Access requests through HTTP: creating with every rule of the spec, reading, listing, comments, cancel.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createGroup, createMember, createOwner, NO_SUCH_ID, type Signed } from '../helpers/fixtures.ts';
import { config, makeRequest, ownerOf, postRequest, requestableResource, reviewerIds, stage } from '../helpers/requests.ts';
import { errorPaths } from '../helpers/errors.ts';
import { countEvents } from '../helpers/events.ts';

describe('access requests', () => {
  let app: TestApp;
  let alice: Signed; // requester
  let rita: Signed; // reviewer (user of the admin owner)
  let outsider: Signed;
  let adminOwner: { owner_id: string };

  before(async () => {
    app = await startTestApp();
    [alice, rita, outsider] = [await createMember(app.api), await createMember(app.api), await createMember(app.api)];
    adminOwner = await ownerOf(app, rita);
  });
  after(() => app.close());

  const allRequests = async () => (await app.api.get('/requests', { page_size: 1000 })).body.requests as { id: string }[];
  const getRequest = async (id: string) => {
    const res = await app.api.get(`/requests/${id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };

  describe('POST /requests', () => {
    it('creates a PENDING request for the caller, reviewed by the item\'s admin owner when it has no stages', async () => {
      const resource = await requestableResource(app, adminOwner.owner_id);
      const res = await postRequest(alice.api, { resources: [{ id: resource.resource_id.toUpperCase() }], reason: 'on call this week' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body), ['id']);
      const request = await getRequest(res.body.id);
      assert.equal(request.status, 'PENDING');
      assert.equal(request.requester_id, alice.user_id);
      assert.equal(request.target_user_id, alice.user_id);
      assert.equal(request.reason, 'on call this week');
      assert.equal(request.duration_minutes, 60);
      assert.deepEqual(request.requested_items_list, [
        { resource_id: resource.resource_id, name: resource.name, access_level_name: '', access_level_remote_id: '' },
      ]);
      assert.equal(request.reviewer_stages[0].item_id, resource.resource_id);
      assert.equal(request.reviewer_stages[0].requestedItemName, resource.name);
      assert.deepEqual(request.reviewer_stages[0].stages, [
        { stage: 1, operator: 'OR', reviewers: [{ id: rita.user_id, full_name: rita.full_name, status: 'PENDING', decision_needed: true }] },
      ]);
      assert.deepEqual(request.request_comments, []);

      const events = (await app.api.get('/events', { object_filter: res.body.id, event_type_filter: 'REQUESTS_CREATED' })).body.results;
      assert.equal(events.length, 1);
      assert.equal(events[0].actor_user_id, alice.user_id);
      assert.equal(events[0].sub_events[0].requester_id, alice.user_id);
      assert.equal(events[0].sub_events[0].requester_name, alice.full_name);
      const byItem = (await app.api.get('/events', { object_filter: resource.resource_id, event_type_filter: 'REQUESTS_CREATED' })).body.results;
      assert.equal(byItem.length, 1, 'the item sub-event makes the request findable by the resource');
    });

    it('refuses every rule the spec sets with 400 naming the field, and creates nothing', async () => {
      const owner = adminOwner.owner_id;
      const plain = await requestableResource(app, owner);
      const leveled = await requestableResource(app, owner, undefined, { access_levels: [{ access_level_name: 'Admin', access_level_remote_id: 'admin' }] });
      const closed = await requestableResource(app, owner, undefined, { is_requestable: false });
      const short = await requestableResource(app, owner, [config({ max_duration_minutes: 120 })]);
      const ticketed = await requestableResource(app, owner, [config({ require_support_ticket: true })]);
      const group = await createGroup(app.api);
      const r = (id: string, extra: Record<string, unknown> = {}) => ({ resources: [{ id, ...extra }] });
      const ticket = { ticketing_provider: 'JIRA', remote_id: '1', identifier: 'OPS-1', url: 'https://jira.example.com/OPS-1' };
      const cases: [Record<string, unknown>, string[]][] = [
        [{ resources: undefined, groups: undefined, reason: undefined, duration_minutes: undefined }, ['duration_minutes', 'groups', 'reason', 'resources']],
        [{}, ['resources']],
        [{ ...r(plain.resource_id), reason: '  ' }, ['reason']],
        [{ ...r(plain.resource_id), duration_minutes: 0 }, ['duration_minutes']],
        [{ ...r(plain.resource_id), duration_minutes: -2 }, ['duration_minutes']],
        [{ ...r(plain.resource_id), duration_minutes: 1.5 }, ['duration_minutes']],
        // No maximum on the item: still at most a year, as for every access edge (1e20 was a 500, 1e12 an unapprovable request).
        [{ ...r(plain.resource_id), duration_minutes: 525961 }, ['duration_minutes']],
        [{ ...r(plain.resource_id), duration_minutes: 1e12 }, ['duration_minutes']],
        [{ ...r(plain.resource_id), duration_minutes: 1e20 }, ['duration_minutes']],
        [{ ...r(plain.resource_id), target_user_id: alice.user_id, target_group_id: group.group_id }, ['target_group_id']],
        [{ ...r(plain.resource_id), target_user_id: NO_SUCH_ID }, ['target_user_id']],
        [{ ...r(plain.resource_id), target_group_id: NO_SUCH_ID }, ['target_group_id']],
        [r(NO_SUCH_ID), ['resources.0.id']],
        [{ groups: [{ id: NO_SUCH_ID }] }, ['groups.0.id']],
        [r('not-a-uuid'), ['resources.0.id']],
        [r(leveled.resource_id, { access_level_remote_id: 'nope' }), ['resources.0.access_level_remote_id']],
        [r(closed.resource_id), ['resources.0.id']],
        [{ resources: [{ id: plain.resource_id }, { id: plain.resource_id }] }, ['resources.1.id']],
        [{ ...r(short.resource_id), duration_minutes: 121 }, ['duration_minutes']],
        [{ ...r(short.resource_id), duration_minutes: -1 }, ['duration_minutes']],
        [r(ticketed.resource_id), ['support_ticket']],
        [{ ...r(ticketed.resource_id), support_ticket: { ...ticket, ticketing_provider: 'EMAIL' } }, ['support_ticket.ticketing_provider']],
        [{ ...r(plain.resource_id), custom_metadata: [{ name: 'pager', type: 'BOOLEAN', value: 'yes' }] }, ['custom_metadata.0.value']],
        [{ ...r(plain.resource_id), custom_metadata: [{ name: 'a', type: 'SHORT_TEXT', value: '1' }, { name: 'a', type: 'SHORT_TEXT', value: '2' }] }, ['custom_metadata.1.name']],
        [{ ...r(plain.resource_id), custom_metadata: [{ name: 'a', type: 'DATE', value: '1' }] }, ['custom_metadata.0.type']],
      ];
      const before = [await countEvents(app.api, { type: 'REQUESTS_CREATED' }), (await allRequests()).length];
      for (const [body, expected] of cases) {
        const res = await postRequest(app.api, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.code, 'validation_failed');
        assert.deepEqual(errorPaths(res.body), expected, JSON.stringify(body));
      }
      assert.deepEqual([await countEvents(app.api, { type: 'REQUESTS_CREATED' }), (await allRequests()).length], before);

      // The same items within their limits are accepted.
      await makeRequest(app.api, { ...r(short.resource_id), duration_minutes: 120 });
      await makeRequest(app.api, { ...r(ticketed.resource_id), support_ticket: ticket });
      await makeRequest(app.api, { ...r(leveled.resource_id, { access_level_remote_id: 'admin' }), duration_minutes: -1 });
    });

    it('keeps the support ticket and custom fields, answering BOOLEAN fields as booleans', async () => {
      const resource = await requestableResource(app, adminOwner.owner_id);
      const ticket = { ticketing_provider: 'LINEAR', remote_id: 'abc', identifier: 'ENG-7', url: 'https://linear.app/x/ENG-7' };
      const id = await makeRequest(alice.api, {
        resources: [{ id: resource.resource_id }], support_ticket: ticket,
        custom_metadata: [{ name: 'pager', type: 'BOOLEAN', value: 'true' }, { name: 'why', type: 'LONG_TEXT', value: 'incident' }],
      });
      const request = await getRequest(id);
      assert.deepEqual(request.support_ticket, ticket);
      assert.deepEqual(request.custom_fields_responses, [
        { field_name: 'pager', field_type: 'BOOLEAN', field_value: true },
        { field_name: 'why', field_type: 'LONG_TEXT', field_value: 'incident' },
      ]);
    });

    it('lets a member request only for themselves or a group they lead or administer (403 otherwise)', async () => {
      const resource = await requestableResource(app, adminOwner.owner_id);
      const led = await createGroup(app.api, { group_leader_user_ids: [alice.user_id] });
      const administered = await createGroup(app.api, { admin_owner_id: (await ownerOf(app, alice)).owner_id });
      const foreign = await createGroup(app.api);
      const body = { resources: [{ id: resource.resource_id }] };
      const before = await countEvents(app.api, { type: 'REQUESTS_CREATED' });
      for (const target of [{ target_user_id: outsider.user_id }, { target_group_id: foreign.group_id }]) {
        const res = await postRequest(alice.api, { ...body, ...target });
        assert.equal(res.status, 403, JSON.stringify(target));
        assert.equal(res.body.code, 'forbidden');
        assert.deepEqual(errorPaths(res.body), [Object.keys(target)[0]]);
      }
      assert.equal(await countEvents(app.api, { type: 'REQUESTS_CREATED' }), before);
      await makeRequest(alice.api, { ...body, target_user_id: alice.user_id });
      const forLed = await getRequest(await makeRequest(alice.api, { ...body, target_group_id: led.group_id }));
      assert.equal(forLed.target_group_id, led.group_id);
      assert.equal('target_user_id' in forLed, false);
      await makeRequest(alice.api, { ...body, target_group_id: administered.group_id });
      // A group the member cannot see reads as one that does not exist, whether or not they lead it.
      const hidden = await createGroup(app.api);
      assert.equal((await app.api.put(`/groups/${hidden.group_id}/visibility`, { visibility: 'LIMITED', visibility_group_ids: [] })).status, 200);
      const unseen = await postRequest(outsider.api, { ...body, target_group_id: hidden.group_id });
      const missing = await postRequest(outsider.api, { ...body, target_group_id: NO_SUCH_ID });
      assert.equal(unseen.status, 400);
      assert.deepEqual(unseen.body.details, missing.body.details);
      await makeRequest(app.api, { ...body, target_user_id: outsider.user_id }); // admins may target anyone
    });

    it('reads the level from access_level_name when a client sends only the name, and ignores the name beside a remote id', async () => {
      const leveled = await requestableResource(app, adminOwner.owner_id, undefined, {
        access_levels: [{ access_level_name: 'Admin', access_level_remote_id: 'admin' }, { access_level_name: 'Read', access_level_remote_id: 'ro' }],
      });
      const levelOf = async (entry: Record<string, unknown>) =>
        (await getRequest(await makeRequest(alice.api, { resources: [{ id: leveled.resource_id, ...entry }] }))).requested_items_list[0];
      assert.deepEqual(await levelOf({ access_level_name: 'Read' }), { resource_id: leveled.resource_id, name: leveled.name, access_level_name: 'Read', access_level_remote_id: 'ro' });
      assert.equal((await levelOf({ access_level_remote_id: 'admin', access_level_name: 'Read' })).access_level_remote_id, 'admin');
      assert.equal((await levelOf({})).access_level_remote_id, '');
      const before = (await allRequests()).length;
      const unknown = await postRequest(alice.api, { resources: [{ id: leveled.resource_id, access_level_name: 'Owner' }] });
      assert.equal(unknown.status, 400);
      assert.deepEqual(errorPaths(unknown.body), ['resources.0.access_level_name']);
      const twice = await postRequest(alice.api, { resources: [{ id: leveled.resource_id, access_level_name: 'Read' }, { id: leveled.resource_id, access_level_remote_id: 'ro' }] });
      assert.deepEqual(errorPaths(twice.body), ['resources.1.id'], 'the same level named two ways is asked twice');
      assert.equal((await allRequests()).length, before);
    });

    it('refuses an item the member cannot see exactly as one that does not exist (400 naming it), and takes it once they can', async () => {
      const resource = await requestableResource(app, adminOwner.owner_id);
      const insiders = await createGroup(app.api);
      const limited = await app.api.put(`/resources/${resource.resource_id}/visibility`, { visibility: 'LIMITED', visibility_group_ids: [insiders.group_id] });
      assert.equal(limited.status, 200, JSON.stringify(limited.body));
      const body = { resources: [{ id: resource.resource_id }] };
      const before = (await allRequests()).length;
      const unseen = await postRequest(outsider.api, body);
      assert.equal(unseen.status, 400, JSON.stringify(unseen.body));
      assert.deepEqual(errorPaths(unseen.body), ['resources.0.id']);
      const missing = await postRequest(outsider.api, { resources: [{ id: NO_SUCH_ID }] });
      assert.equal(missing.status, 400);
      assert.equal(unseen.body.message.replace(resource.resource_id, 'ID'), missing.body.message.replace(NO_SUCH_ID, 'ID'), 'an unseen item reads as a missing one');
      // Whatever else the entry asks, the unseen item is refused first, as a missing one is.
      for (const extra of [{ access_level_remote_id: 'no-such-level' }, { access_level_name: 'no such level' }]) {
        const odd = await postRequest(outsider.api, { resources: [{ id: resource.resource_id, ...extra }] });
        assert.deepEqual(errorPaths(odd.body), ['resources.0.id'], JSON.stringify(extra));
        assert.equal(odd.body.message, unseen.body.message, JSON.stringify(extra));
      }
      assert.equal((await allRequests()).length, before, 'nothing created');
      await makeRequest(app.api, { ...body, target_user_id: outsider.user_id }); // admins see everything
      assert.equal((await app.api.post(`/groups/${insiders.group_id}/users/${outsider.user_id}`, { duration_minutes: 0 })).status, 200);
      await makeRequest(outsider.api, body);
    });

    it('answers 404 for an unknown request and 400 for a malformed id', async () => {
      assert.equal((await app.api.get(`/requests/${NO_SUCH_ID}`)).status, 404);
      const bad = await app.api.get('/requests/nope');
      assert.equal(bad.status, 400);
      assert.deepEqual(errorPaths(bad.body), ['id']);
      assert.equal((await app.api.post(`/requests/${NO_SUCH_ID}/approve`, { level: 'ADMIN' })).status, 404);
    });
  });

  describe('deny, cancel and comments', () => {
    it('a reviewer denies with a comment (required); the reviewer reads REJECTED; nothing is granted; a denied request never changes', async () => {
      const resource = await requestableResource(app, adminOwner.owner_id);
      const id = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }] });
      const noComment = await rita.api.post(`/requests/${id}/deny`, {});
      assert.equal(noComment.status, 400);
      assert.deepEqual(errorPaths(noComment.body), ['comment']);
      assert.equal((await outsider.api.post(`/requests/${id}/deny`, { comment: 'no' })).status, 404, 'no part in the request: it reads as missing');
      assert.equal((await alice.api.post(`/requests/${id}/deny`, { comment: 'no' })).status, 403, 'the requester cancels, not denies');
      assert.equal(await countEvents(app.api, { type: 'REQUESTS_DENIED' }), 0);

      const res = await rita.api.post(`/requests/${id}/deny`, { comment: 'not this week' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.request.status, 'DENIED');
      assert.deepEqual(res.body.request.reviewer_stages[0].stages[0].reviewers.map((r: { status: string }) => r.status), ['REJECTED']);
      assert.equal(res.body.request.request_comments[0].comment, 'not this week');
      assert.equal(res.body.request.request_comments[0].user_id, rita.user_id);
      for (const [path, body] of [['approve', { level: 'REGULAR' }], ['approve', { level: 'ADMIN' }], ['deny', { comment: 'again' }], ['cancel', undefined]] as const) {
        const again = await app.api.post(`/requests/${id}/${path}`, body);
        assert.equal(again.status, 409, `${path} ${JSON.stringify(body)}`);
      }
      assert.equal((await app.api.get(`/resources/${resource.resource_id}/users`)).body.results.length, 0);
      assert.equal(await countEvents(app.api, { type: 'REQUESTS_DENIED' }), 1);
    });

    it('the requester or an admin cancels (a member who is neither gets 403); a canceled request cannot be approved', async () => {
      const resource = await requestableResource(app, adminOwner.owner_id);
      const id = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }] });
      assert.equal((await outsider.api.post(`/requests/${id}/cancel`)).status, 404);
      assert.equal((await rita.api.post(`/requests/${id}/cancel`)).status, 403, 'a reviewer denies, never cancels');
      const res = await alice.api.post(`/requests/${id}/cancel`);
      assert.equal(res.status, 200);
      assert.equal(res.body.request.status, 'CANCELED');
      assert.equal((await rita.api.post(`/requests/${id}/approve`, { level: 'REGULAR' })).status, 409);
      const events = (await app.api.get('/events', { object_filter: id, event_type_filter: 'REQUESTS_CANCELED' })).body.results;
      assert.equal(events.length, 1);
      assert.equal(events[0].actor_user_id, alice.user_id);

      const byAdmin = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }] });
      assert.equal((await app.api.post(`/requests/${byAdmin}/cancel`)).body.request.status, 'CANCELED');
    });

    it('the requester, a reviewer and admins comment; anyone else gets 403; comments read back in order', async () => {
      const resource = await requestableResource(app, adminOwner.owner_id);
      const id = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }] });
      assert.equal((await outsider.api.post(`/requests/${id}/comments`, { comment: 'me too' })).status, 404);
      const empty = await alice.api.post(`/requests/${id}/comments`, { comment: ' ' });
      assert.equal(empty.status, 400);
      assert.deepEqual(errorPaths(empty.body), ['comment']);
      for (const [who, text] of [[alice, 'please'], [rita, 'why?'], [undefined, 'admin here']] as const) {
        const res = await (who?.api ?? app.api).post(`/requests/${id}/comments`, { comment: text });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.request.id, id);
      }
      const list = await app.api.get(`/requests/${id}/comments`);
      assert.deepEqual(list.body.comments.map((c: { comment: string }) => c.comment), ['please', 'why?', 'admin here']);
      assert.equal(list.body.comments[0].user_full_name, alice.full_name);
      assert.deepEqual((await getRequest(id)).request_comments, list.body.comments);
      assert.equal((await app.api.get('/events', { object_filter: id, event_type_filter: 'REQUEST_COMMENTS_CREATED' })).body.results.length, 3);
      assert.equal((await app.api.get(`/requests/${NO_SUCH_ID}/comments`)).status, 404);
    });
  });

  describe('lists', () => {
    let owner: { owner_id: string };
    let ids: string[];
    let res1: string;
    before(async () => {
      owner = await createOwner(app.api, { user_ids: [rita.user_id] });
      const [a, b] = [await requestableResource(app, owner.owner_id), await requestableResource(app, owner.owner_id)];
      res1 = a.resource_id;
      ids = [];
      ids.push(await makeRequest(alice.api, { resources: [{ id: a.resource_id }] }));
      app.clock.advance(60_000);
      ids.push(await makeRequest(outsider.api, { resources: [{ id: b.resource_id }] }));
      app.clock.advance(60_000);
      ids.push(await makeRequest(alice.api, { resources: [{ id: b.resource_id }] }));
      await alice.api.post(`/requests/${ids[2]}/cancel`);
    });

    it('GET /requests pages newest first with an opaque cursor and filters by requester, target, item, status and date', async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const res = await app.api.get('/requests', { page_size: 2, cursor, requester_id: alice.user_id });
        assert.equal(res.status, 200);
        seen.push(...res.body.requests.map((r: { id: string }) => r.id));
        cursor = res.body.cursor;
      } while (cursor);
      const mine = seen.filter((id) => ids.includes(id));
      assert.deepEqual(mine, [ids[2], ids[0]]);
      const only = async (query: Record<string, string>) =>
        (await app.api.get('/requests', { page_size: 1000, ...query })).body.requests.map((r: { id: string }) => r.id).filter((id: string) => ids.includes(id));
      assert.deepEqual(await only({ resource_id: res1 }), [ids[0]]);
      // Both item filters: requests asking for that resource and that group (none here); a group id given as a resource matches nothing.
      const someGroup = await createGroup(app.api, { admin_owner_id: owner.owner_id });
      assert.deepEqual(await only({ resource_id: res1, group_id: someGroup.group_id }), []);
      const both = await makeRequest(outsider.api, { resources: [{ id: res1 }], groups: [{ id: someGroup.group_id }] });
      ids.push(both);
      assert.deepEqual(await only({ resource_id: res1, group_id: someGroup.group_id }), [both]);
      assert.deepEqual(await only({ group_id: someGroup.group_id }), [both]);
      ids.pop();
      assert.deepEqual(await only({ group_id: res1 }), []);
      assert.deepEqual(await only({ target_user_id: outsider.user_id }), [ids[1]]);
      assert.deepEqual(await only({ requester_id: alice.user_id, show_pending_only: 'TRUE' }), [ids[0]]);
      assert.deepEqual(await only({ requester_id: alice.user_id, show_pending_only: 'false' }), [ids[2], ids[0]]);
      const first = await getRequest(ids[0]!);
      assert.deepEqual(await only({ start_date_filter: first.created_at, end_date_filter: first.created_at }), [ids[0]]);
      assert.deepEqual(await only({ start_date_filter: '2000-01-01', end_date_filter: '2000-01-02' }), []);
      const bad = await app.api.get('/requests', { cursor: 'nope', show_pending_only: 'maybe', end_date_filter: '2026-02-30' });
      assert.equal(bad.status, 400);
      assert.deepEqual(errorPaths(bad.body), ['end_date_filter', 'show_pending_only']);
    });

    it('GET /requests/relay pages both ways and filters by status (any case), from and to', async () => {
      const forward = await app.api.get('/requests/relay', { first: 1, from: alice.user_id });
      assert.equal(forward.status, 200);
      assert.equal(forward.body.totalCount, (await app.api.get('/requests', { requester_id: alice.user_id, page_size: 1000 })).body.requests.length);
      assert.equal(forward.body.edges.length, 1);
      assert.equal(forward.body.pageInfo.hasNextPage, true);
      assert.equal(forward.body.pageInfo.hasPreviousPage, false);
      const next = await app.api.get('/requests/relay', { first: 100, after: forward.body.pageInfo.endCursor, from: alice.user_id });
      const all = [...forward.body.edges, ...next.body.edges].map((e: { node: { id: string } }) => e.node.id);
      assert.equal(next.body.pageInfo.hasNextPage, false);
      assert.deepEqual(all, (await app.api.get('/requests', { requester_id: alice.user_id, page_size: 1000 })).body.requests.map((r: { id: string }) => r.id));
      const back = await app.api.get('/requests/relay', { last: 1, before: next.body.pageInfo.startCursor, from: alice.user_id });
      assert.deepEqual(back.body.edges.map((e: { node: { id: string } }) => e.node.id), [all[0]]);
      const canceled = await app.api.get('/requests/relay', { status: 'canceled', from: alice.user_id, first: 100 });
      assert.deepEqual(canceled.body.edges.map((e: { node: { id: string } }) => e.node.id).filter((id: string) => ids.includes(id)), [ids[2]]);
      assert.ok(canceled.body.edges.every((e: { node: { status: string } }) => e.node.status === 'CANCELED'));
      assert.equal(canceled.body.totalCount, canceled.body.edges.length);
      const toRita = await app.api.get('/requests/relay', { to: rita.user_id, first: 100 });
      assert.ok(ids.every((id) => toRita.body.edges.some((e: { node: { id: string } }) => e.node.id === id)));
      const toOutsider = await app.api.get('/requests/relay', { to: outsider.user_id });
      assert.equal(toOutsider.body.totalCount, 0);
      const bad = await app.api.get('/requests/relay', { first: 1, last: 1 });
      assert.equal(bad.status, 400);
      assert.deepEqual(errorPaths(bad.body), ['last']);
      assert.equal((await app.api.get('/requests/relay', { status: 'LOST' })).status, 400);
      assert.equal((await app.api.get('/requests/relay', { after: 'nope' })).status, 400);
    });

    it('shows a member only the requests they take part in: requester, target, reviewer, or a reviewer\'s delegate while in force', async () => {
      const bystander = await createMember(app.api);
      const delegate = await createMember(app.api);
      const listedBy = async (member: Signed) => {
        const res = await member.api.get('/requests', { page_size: 1000 });
        assert.equal(res.status, 200);
        return (res.body.requests as { id: string }[]).map((r) => r.id).filter((id) => ids.includes(id)).sort();
      };
      const relayCount = async (member: Signed) => (await member.api.get('/requests/relay', { first: '100' })).body.totalCount as number;
      assert.deepEqual(await listedBy(alice), [ids[0], ids[2]].sort());
      assert.deepEqual(await listedBy(outsider), [ids[1]]);
      assert.deepEqual(await listedBy(rita), [...ids].sort(), 'rita reviews all three');
      assert.deepEqual(await listedBy(bystander), []);
      assert.equal(await relayCount(bystander), 0);
      assert.equal((await app.api.get('/requests', { page_size: 1000 })).body.requests.filter((r: { id: string }) => ids.includes(r.id)).length, 3, 'admins read every request');

      // Someone else's request reads as a missing one, for the request and its comments.
      for (const path of [`/requests/${ids[0]}`, `/requests/${ids[0]}/comments`]) {
        const unseen = await bystander.api.get(path);
        const absent = await bystander.api.get(path.replace(ids[0]!, NO_SUCH_ID));
        assert.equal(unseen.status, 404, path);
        assert.deepEqual(unseen.body.details, absent.body.details, path);
        assert.equal(unseen.body.message, absent.body.message.replace(NO_SUCH_ID, ids[0]!), path);
      }
      assert.equal((await alice.api.get(`/requests/${ids[0]}`)).status, 200);
      assert.equal((await outsider.api.get(`/requests/${ids[0]}/comments`)).status, 404);

      // A delegate of rita reads her reviews while the delegation is in force, and not after.
      const start = app.clock.now();
      const end = new Date(start.getTime() + 60 * 60_000);
      const delegation = await rita.api.post('/delegations', {
        delegator_user_id: rita.user_id, delegate_user_id: delegate.user_id, start_time: start.toISOString(), end_time: end.toISOString(), reason: 'holiday',
      });
      assert.equal(delegation.status, 200, JSON.stringify(delegation.body));
      assert.deepEqual(await listedBy(delegate), [...ids].sort());
      assert.equal((await delegate.api.get(`/requests/${ids[1]}`)).status, 200);
      app.clock.set(end);
      assert.deepEqual(await listedBy(delegate), []);
      assert.equal((await delegate.api.get(`/requests/${ids[1]}`)).status, 404);
    });

    it('shows each reviewer of a request in the list as in the single read', async () => {
      const listed = (await app.api.get('/requests', { page_size: 1000 })).body.requests.find((r: { id: string }) => r.id === ids[0]);
      const single = await getRequest(ids[0]!);
      assert.deepEqual(listed, single);
      assert.deepEqual(reviewerIds(single), [[[rita.user_id]]]);
    });
  });

  it('an item stage with OR completes on one approval; the request reads APPROVED with the approver\'s status', async () => {
    const second = await createMember(app.api);
    const owner = await ownerOf(app, rita, second);
    const resource = await requestableResource(app, adminOwner.owner_id, [config({ reviewer_stages: [stage({ owner_ids: [owner.owner_id] })] })]);
    const id = await makeRequest(alice.api, { resources: [{ id: resource.resource_id }] });
    const res = await second.api.post(`/requests/${id}/approve`, { level: 'REGULAR', comment: 'ok' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.request.status, 'APPROVED');
    const reviewers = res.body.request.reviewer_stages[0].stages[0].reviewers;
    assert.deepEqual(Object.fromEntries(reviewers.map((r: { id: string; status: string }) => [r.id, r.status])), {
      [rita.user_id]: 'PENDING', [second.user_id]: 'APPROVED',
    });
    assert.equal(res.body.request.request_comments[0].comment, 'ok');
  });
});
