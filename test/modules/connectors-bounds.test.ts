// A connector whose lists never end, whose pages or answers are huge, or which answers slowly cannot
// flood Gatehouse (issue 30): each sync stops at its bound and says which, writes what it read in slices
// while other requests are answered, and what it records stays bounded and paged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openDatabase, type Db } from '../../src/db/open.ts';
import { tick as scheduledSync } from '../../src/modules/connectors/service.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { readEvents } from '../helpers/events.ts';
import { createApp } from '../helpers/fixtures.ts';
import { OpalConnector } from '../helpers/opal-connector.ts';
import { until } from '../helpers/wait.ts';

const SECRET = 'connector-signing-secret-0123456789';
const MAX_ITEMS = 60;
const PAGE_MAX_ITEMS = 20;
const MAX_BYTES = 200_000;
const MAX_RESPONSE_BYTES = 50_000;
const MAX_MS = 10 * 60_000;
const SLICE = 3;

/** A page of `size` users from `start` on, every user `pad` characters longer, and always a next page. */
const endlessUsers = (prefix: string, size: number, pad = 0) => (path: string, cursor: string | null) => {
  if (path !== '/users') return { [path.split('/')[1]!]: [], next_cursor: null };
  const start = Number(cursor ?? '0');
  const users = Array.from({ length: size }, (_, i) => ({ id: `${prefix}-${start + i}`, email: `${prefix}-${start + i}@remote.example`, ...(pad > 0 && { note: 'x'.repeat(pad) }) }));
  return { users, next_cursor: String(start + size) };
};

describe('connector sync bounds', () => {
  let app: TestApp;
  let remote: OpalConnector;
  let side: Db;
  let appId: string;

  const sync = async () => {
    const res = await app.api.post(`/apps/${appId}/connector/sync`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const remoteUserRows = () => (side.prepare('SELECT count(*) AS n FROM connector_users WHERE app_id = ?').get(appId) as { n: number }).n;

  before(async () => {
    app = await startTestApp({
      env: {
        GATEHOUSE_CONNECTOR_SYNC_MAX_ITEMS: String(MAX_ITEMS), GATEHOUSE_CONNECTOR_PAGE_MAX_ITEMS: String(PAGE_MAX_ITEMS),
        GATEHOUSE_CONNECTOR_SYNC_MAX_BYTES: String(MAX_BYTES), GATEHOUSE_CONNECTOR_MAX_RESPONSE_BYTES: String(MAX_RESPONSE_BYTES),
        GATEHOUSE_CONNECTOR_SYNC_MAX_MS: String(MAX_MS), GATEHOUSE_CONNECTOR_SYNC_SLICE_ITEMS: String(SLICE),
      },
    });
    // A second connection on the file sees what is committed, as another process would.
    side = openDatabase(app.dbFile, { readonly: true });
    remote = await new OpalConnector(SECRET).start();
    appId = (await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR' })).app_id;
    assert.equal((await app.api.put(`/apps/${appId}/connector`, { url: remote.url, signing_secret: SECRET })).status, 200);
  });
  after(async () => {
    side.close();
    await app.close();
    await remote.stop();
  });

  it('writes one page in slices over many turns, answering other requests between them', async () => {
    const other = (await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR' })).app_id;
    assert.equal((await app.api.put(`/apps/${other}/connector`, { url: remote.url, signing_secret: SECRET })).status, 200);
    // One page of PAGE_MAX_ITEMS users: SLICE of them per transaction.
    remote.answer = (path) => path === '/users'
      ? { users: Array.from({ length: PAGE_MAX_ITEMS }, (_, i) => ({ id: `sliced-${i}`, email: `sliced-${i}@remote.example` })), next_cursor: null }
      : { [path.split('/')[1]!]: [], next_cursor: null };
    const rows = () => (side.prepare('SELECT count(*) AS n FROM connector_users WHERE app_id = ?').get(other) as { n: number }).n;
    // Whatever else runs on the event loop sees the rows written so far after every turn.
    const seenByTurns = new Set<number>();
    let syncing = true;
    const watch = () => {
      seenByTurns.add(rows());
      if (syncing) setImmediate(watch);
    };
    setImmediate(watch);
    const answered: number[] = [];
    const probe = (async () => {
      while (syncing) {
        assert.equal((await app.api.get(`/apps/${other}/connector`)).status, 200);
        answered.push(rows());
      }
    })();
    const res = await app.api.post(`/apps/${other}/connector/sync`);
    syncing = false;
    await probe;
    assert.equal(res.body.ok, true, JSON.stringify(res.body));
    assert.equal(res.body.users, PAGE_MAX_ITEMS);
    const partial = [...seenByTurns].filter((n) => n > 0 && n < PAGE_MAX_ITEMS);
    assert.ok(partial.length >= 2, `the page was written in one go: turns saw ${[...seenByTurns].sort((a, b) => a - b).join(', ')}`);
    // How many rows one slice takes is not asserted: a slice ends at SLICE rows or after SYNC_SLICE_MS of
    // work, whichever comes first, and a loaded machine cuts some short. What matters is above and below:
    // several turns saw the page part-written, and other requests were answered between its slices.
    assert.ok(answered.some((n) => n > 0 && n < PAGE_MAX_ITEMS), `no request was answered between slices: ${answered.join(', ')}`);
    // The scheduled syncs below are this file's one connector's.
    assert.equal((await app.api.delete(`/apps/${other}/connector`)).status, 200);
  });

  it('stops a list that never ends at the item bound, writing it in slices while other requests are answered', async () => {
    remote.answer = endlessUsers('endless', 5);
    const small = JSON.stringify((await app.api.get(`/apps/${appId}/connector`)).body).length;
    // A client reading meanwhile: how far the sync's writes were when each answer came.
    let syncing = true;
    const seen: number[] = [];
    const probe = (async () => {
      while (syncing) {
        const res = await app.api.get(`/apps/${appId}/connector`);
        assert.equal(res.status, 200);
        seen.push(remoteUserRows());
      }
    })();
    const summary = await sync();
    syncing = false;
    await probe;
    assert.equal(summary.ok, false);
    assert.equal(summary.truncated, true);
    assert.equal(summary.stopped_at, 'max_items');
    assert.match(summary.error, /GATEHOUSE_CONNECTOR_SYNC_MAX_ITEMS/);
    assert.equal(summary.items_read, MAX_ITEMS);
    assert.equal(summary.users, MAX_ITEMS);
    assert.equal(summary.users_unmatched, MAX_ITEMS);
    assert.ok(seen.some((n) => n > 0 && n < MAX_ITEMS), `no request was answered while the sync was part-way: ${seen.join(', ')}`);
    // The rows are bounded, and the connector's answer did not grow with them: a count, never the list.
    assert.equal(remoteUserRows(), MAX_ITEMS);
    const connector = (await app.api.get(`/apps/${appId}/connector`)).body;
    assert.equal(connector.unmatched_remote_users_count, MAX_ITEMS);
    assert.ok(Object.values(connector).every((value) => !Array.isArray(value)));
    assert.ok(JSON.stringify(connector).length < small + 100, JSON.stringify(connector));
    // The list is paged, by keyset, every user once.
    const listed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await app.api.get(`/apps/${appId}/connector/unmatched-users`, { page_size: 25, cursor });
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.ok(page.body.results.length <= 25);
      listed.push(...page.body.results.map((u: { remote_user_id: string }) => u.remote_user_id));
      cursor = page.body.next ?? undefined;
    } while (cursor);
    assert.equal(new Set(listed).size, MAX_ITEMS);
    // The stop is a sync error too, and the event says where it stopped.
    const errors = (await app.api.get('/sync_errors', { app_id: appId })).body[0].sync_errors as { error_message: string }[];
    assert.ok(errors.some((e) => e.error_message.includes('GATEHOUSE_CONNECTOR_SYNC_MAX_ITEMS')));
    const [event] = await readEvents(app.api, { type: 'CONNECTORS_SYNCED' });
    assert.equal(event!.sub_events[0]!.stopped_at, 'max_items');
    assert.equal(event!.sub_events[0]!.truncated, true);
  });

  it('the hourly scheduled sync obeys the same bound, and the rows stay bounded sync after sync', async () => {
    app.clock.advance(2 * 3_600_000);
    assert.equal(await scheduledSync(app.ctx, app.clock.now()), 1);
    const [event] = await readEvents(app.api, { type: 'CONNECTORS_SYNCED' });
    assert.equal(event!.sub_events[0]!.stopped_at, 'max_items');
    assert.equal(event!.sub_events[0]!.items_read, MAX_ITEMS);
    assert.equal(remoteUserRows(), MAX_ITEMS);
  });

  it('a connector naming new users and items at every sync cannot grow the app past the item bound', async () => {
    // New user ids this time: none is kept, the app already holds the most.
    remote.answer = endlessUsers('fresh', 5);
    const users = await sync();
    assert.equal(users.users_matched + users.users_unmatched, 0);
    assert.equal(remoteUserRows(), MAX_ITEMS);
    const errors = (await app.api.get('/sync_errors', { app_id: appId })).body[0].sync_errors as { error_message: string }[];
    assert.ok(errors.some((e) => e.error_message.includes('remote users from its connector, the most kept')), JSON.stringify(errors));
    // Endless resources, new ids at every sync: at most the bound of them, in all.
    let round = 0;
    remote.answer = (path, cursor) => {
      if (path === '/users') return { users: [], next_cursor: null };
      if (path !== '/resources') return { [path.split('/').pop() === 'access_levels' ? 'access_levels' : path.split('/')[1] === 'groups' ? 'groups' : 'users']: [], next_cursor: null };
      const start = Number(cursor ?? '0');
      return { resources: Array.from({ length: 5 }, (_, i) => ({ id: `r${round}-${start + i}`, name: `Remote ${round}-${start + i}` })), next_cursor: String(start + 5) };
    };
    const first = await sync();
    assert.equal(first.stopped_at, 'max_items');
    round = 1;
    const second = await sync();
    assert.equal(second.resources_created, 0);
    const resources = (await app.api.get('/resources', { page_size: 1000 })).body.results as { app_id: string }[];
    assert.equal(resources.filter((r) => r.app_id === appId).length, first.resources_created);
    assert.ok(first.resources_created <= MAX_ITEMS);
  });

  it('stops at a page holding more items than the page bound, keeping none of it', async () => {
    remote.answer = endlessUsers('wide', PAGE_MAX_ITEMS + 1);
    const before = remoteUserRows();
    const summary = await sync();
    assert.equal(summary.stopped_at, 'page_items');
    assert.equal(summary.items_read, 0);
    assert.equal(remoteUserRows(), before);
  });

  it('stops at an answer larger than the response bound, having read no more of it than the bound', async () => {
    remote.answer = endlessUsers('huge', 1, MAX_RESPONSE_BYTES * 4);
    const summary = await sync();
    assert.equal(summary.stopped_at, 'response_bytes');
    assert.equal(summary.items_read, 0);
    assert.ok(summary.bytes_read <= MAX_BYTES);
  });

  it('stops at the byte bound across pages, keeping the pages within it', async () => {
    // Pages of about 45 kB: four fit in 200 kB, the fifth passes the bound.
    remote.answer = endlessUsers('heavy', 5, 9_000);
    const summary = await sync();
    assert.equal(summary.stopped_at, 'max_bytes');
    assert.equal(summary.users, 20);
    assert.ok(summary.bytes_read > MAX_BYTES - 50_000 && summary.bytes_read <= MAX_BYTES + MAX_RESPONSE_BYTES, String(summary.bytes_read));
  });

  it('stops at the time bound, checked between calls against the clock', async () => {
    remote.answer = endlessUsers('slow', 1);
    // Each call "takes" two minutes of the test's clock: the bound of ten minutes passes after five.
    remote.onRequest = () => app.clock.advance(2 * 60_000);
    try {
      const summary = await sync();
      assert.equal(summary.stopped_at, 'max_ms');
      assert.equal(summary.users, 5);
    } finally {
      remote.onRequest = null;
    }
  });

  it('refuses a second sync of the app while one runs (409), and the scheduled sync leaves it be', async () => {
    remote.answer = null;
    let release!: () => void;
    remote.hold = new Promise<void>((resolve) => (release = resolve));
    const calls = remote.calls.length;
    const first = app.api.post(`/apps/${appId}/connector/sync`);
    try {
      await until(() => remote.calls.length > calls, 'the first sync\'s first call');
      const second = await app.api.post(`/apps/${appId}/connector/sync`);
      assert.equal(second.status, 409, JSON.stringify(second.body));
      assert.equal(second.body.details[0].path, 'app_id');
      app.clock.advance(2 * 3_600_000);
      assert.equal(await scheduledSync(app.ctx, app.clock.now()), 0);
    } finally {
      remote.hold = null;
      release();
    }
    assert.equal((await first).status, 200);
  });

  it('a list that ends within the bounds is read whole: ok, not truncated', async () => {
    remote.answer = null;
    remote.users.set('u-one', 'one@remote.example');
    const summary = await sync();
    assert.equal(summary.ok, true, JSON.stringify(summary));
    assert.equal(summary.truncated, false);
    assert.equal(summary.stopped_at, null);
    assert.equal(summary.users, 1);
  });
});
