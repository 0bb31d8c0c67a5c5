// The audit trail: what each write records, every filter of GET /events, and GET /events/{id}.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createToken, createUser, NO_SUCH_ID, unique } from '../helpers/fixtures.ts';

type Event = { event_id: string; event_type: string; actor_user_id: string; created_at: string; api_token_name?: string; sub_events: { sub_event_type: string; user_id?: string }[] };

describe('events', () => {
  let app: TestApp;
  let botUser: { user_id: string; email: string; full_name: string };
  let botSecret: string;
  const made: Record<string, { user_id: string; at: string }> = {};

  before(async () => {
    app = await startTestApp();
    // The bot creates users, which only organization admins may do.
    botUser = await createUser(app.api, { full_name: 'Build Bot', organization_role: 'ADMIN' });
    botSecret = (await createToken(app.api, { user_id: botUser.user_id, token_label: 'build-bot' })).secret;
    // One user a day for three days, made by the admin on odd days and by the bot on even ones.
    for (const [day, client] of [['2026-03-10', app.api], ['2026-03-11', app.api.as(botSecret)], ['2026-03-12', app.api]] as const) {
      app.clock.set(`${day}T12:00:00.000Z`);
      const user = await createUser(client);
      made[day] = { user_id: user.user_id, at: app.clock.now().toISOString() };
    }
  });
  after(() => app.close());

  const list = async (query: Record<string, string>) => {
    const res = await app.api.get('/events', { page_size: 1000, ...query });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.results as Event[];
  };
  const createdUsers = (events: Event[]) =>
    events.filter((e) => e.event_type === 'USERS_CREATED').map((e) => e.sub_events[0]!.user_id);

  it('records a write with its actor, token, time and the objects it touched', async () => {
    const [event] = await list({ object_filter: made['2026-03-11']!.user_id });
    assert.ok(event);
    assert.equal(event.event_type, 'USERS_CREATED');
    assert.equal(event.actor_user_id, botUser.user_id);
    assert.equal(event.api_token_name, 'build-bot');
    assert.equal(event.created_at, '2026-03-11T12:00:00.000Z');
    assert.match(event.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(event.sub_events[0]!.sub_event_type, 'USERS_CREATED');
  });

  it('lists newest first', async () => {
    const events = await list({});
    const times = events.map((e) => e.created_at);
    assert.deepEqual(times, [...times].sort().reverse());
  });

  it('start_date_filter takes a whole date or a date-time', async () => {
    assert.deepEqual(createdUsers(await list({ start_date_filter: '2026-03-11' })), [made['2026-03-12']!.user_id, made['2026-03-11']!.user_id]);
    assert.deepEqual(createdUsers(await list({ start_date_filter: '2026-03-11T12:00:00.001Z' })), [made['2026-03-12']!.user_id]);
  });

  it('end_date_filter includes the whole end date, or up to and including a date-time', async () => {
    const upTo11 = createdUsers(await list({ end_date_filter: '2026-03-11' }));
    assert.ok(upTo11.includes(made['2026-03-11']!.user_id));
    assert.ok(!upTo11.includes(made['2026-03-12']!.user_id));
    const upToNoon = createdUsers(await list({ end_date_filter: '2026-03-11T12:00:00Z' }));
    assert.ok(upToNoon.includes(made['2026-03-11']!.user_id));
    const beforeNoon = createdUsers(await list({ end_date_filter: '2026-03-11T11:59:59+00:00' }));
    assert.ok(!beforeNoon.includes(made['2026-03-11']!.user_id));
  });

  it('combines a start and an end into a window', async () => {
    assert.deepEqual(createdUsers(await list({ start_date_filter: '2026-03-11', end_date_filter: '2026-03-11' })), [made['2026-03-11']!.user_id]);
  });

  it('actor_filter keeps one actor\'s events', async () => {
    const events = await list({ actor_filter: botUser.user_id });
    assert.ok(events.length >= 1);
    assert.ok(events.every((e) => e.actor_user_id === botUser.user_id));
    assert.deepEqual(createdUsers(events), [made['2026-03-11']!.user_id]);
  });

  it('object_filter keeps the events that touched an object', async () => {
    const events = await list({ object_filter: made['2026-03-10']!.user_id });
    assert.deepEqual(events.map((e) => e.event_type), ['USERS_CREATED']);
  });

  it('event_type_filter keeps one type', async () => {
    const events = await list({ event_type_filter: 'API_TOKENS_CREATED' });
    assert.ok(events.length >= 2);
    assert.ok(events.every((e) => e.event_type === 'API_TOKENS_CREATED'));
  });

  it('api_token_filter matches "label:preview" as events show it, or the label alone', async () => {
    const [sample] = await list({ actor_filter: botUser.user_id });
    const full = `${sample!.api_token_name}:${(sample as unknown as { api_token_preview: string }).api_token_preview}`;
    assert.deepEqual(createdUsers(await list({ api_token_filter: full })), [made['2026-03-11']!.user_id]);
    assert.deepEqual(createdUsers(await list({ api_token_filter: 'build-bot' })), [made['2026-03-11']!.user_id]);
    assert.deepEqual(await list({ api_token_filter: 'build-bot:************zzzz' }), []);
  });

  it('refuses malformed filters with 400 naming them', async () => {
    for (const [name, value] of [['start_date_filter', 'yesterday'], ['end_date_filter', '2026-13-45'], ['start_date_filter', '2026-03-11T12:00:00'], ['actor_filter', 'bob'], ['object_filter', '123']]) {
      const res = await app.api.get('/events', { [name!]: value });
      assert.equal(res.status, 400, `${name}=${value}`);
      assert.equal(res.body.details[0].path, name);
    }
  });

  it('pages through events', async () => {
    const all = await list({});
    const first = await app.api.get('/events', { page_size: 2 });
    const second = await app.api.get('/events', { page_size: 2, cursor: first.body.next });
    assert.deepEqual([...first.body.results, ...second.body.results], all.slice(0, 4));
  });

  it('GET /events/{id} returns one event, 404 for an unknown one', async () => {
    const [latest] = await list({});
    const one = await app.api.get(`/events/${latest!.event_id}`);
    assert.deepEqual(one.body, latest);
    assert.equal((await app.api.get(`/events/${NO_SUCH_ID}`)).status, 404);
  });

  it('a failed write records nothing', async () => {
    const before = (await list({})).length;
    assert.equal((await app.api.post('/users', { email: botUser.email, full_name: 'Dup' })).status, 409);
    assert.equal((await app.api.post('/users', { email: `${unique('x')}@example.com`, full_name: 'X', manager_id: NO_SUCH_ID })).status, 404);
    assert.equal((await list({})).length, before);
  });
});
