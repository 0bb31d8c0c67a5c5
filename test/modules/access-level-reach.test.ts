// Levels that carry access (issue 41.1): where an app's connector carries access, an item's levels say
// which reach the system (a PostgreSQL database's default level grants no role), and the dry run of a
// request for one that does not warns; without a connector, or with one whose every level carries, nothing does.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createGroup, createMember, createResource, NO_SUCH_ID, type Signed } from '../helpers/fixtures.ts';

const ROLES = [{ access_level_name: 'orders_read', access_level_remote_id: 'orders_read' }, { access_level_name: 'orders_write', access_level_remote_id: 'orders_write' }];

describe('access levels that carry access', () => {
  let app: TestApp;
  let member: Signed;
  let database: string;
  let plain: string;
  let opalItem: string;
  before(async () => {
    app = await startTestApp();
    member = await createMember(app.api);
    const pgApp = (await createApp(app.api, { app_type: 'POSTGRES' })).app_id;
    const put = await app.api.put(`/apps/${pgApp}/connector`, { connection_url: 'postgres://gatehouse@db.example.com:5432/orders' });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    database = (await createResource(app.api, { app_id: pgApp, resource_type: 'POSTGRES_INSTANCE', access_levels: ROLES })).resource_id;
    plain = (await createResource(app.api, { access_levels: ROLES })).resource_id;
    const opalApp = (await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR' })).app_id;
    assert.equal((await app.api.put(`/apps/${opalApp}/connector`, { url: 'https://connector.example.com/opal', signing_secret: 'a-signing-secret-0123456789abcdef' })).status, 200);
    opalItem = (await createResource(app.api, { app_id: opalApp, resource_type: 'CUSTOM_CONNECTOR', access_levels: ROLES })).resource_id;
  });
  after(() => app.close());

  it('a PostgreSQL database offers its roles: its default level carries nothing and says so in words', async () => {
    const res = await member.api.get(`/resources/${database}/access-levels`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.connector, { connector_type: 'POSTGRES', name: 'PostgreSQL' });
    assert.deepEqual(res.body.access_levels.map((l: { access_level_remote_id: string; carries_access: boolean }) => [l.access_level_remote_id, l.carries_access]),
      [['', false], ['orders_read', true], ['orders_write', true]]);
    assert.match(res.body.access_levels[0].note, /default level grants nothing in PostgreSQL/);
    assert.equal(res.body.access_levels[1].note, undefined);
  });

  it('without a connector, or with one whose every level carries, every level carries access', async () => {
    for (const id of [plain, opalItem]) {
      const res = await app.api.get(`/resources/${id}/access-levels`);
      assert.deepEqual(res.body.access_levels.map((l: { carries_access: boolean }) => l.carries_access), [true, true, true]);
    }
    assert.equal((await app.api.get(`/resources/${plain}/access-levels`)).body.connector, null);
    assert.equal((await app.api.get(`/resources/${opalItem}/access-levels`)).body.connector.connector_type, 'OPAL_HTTP');
    const group = (await createGroup(app.api)).group_id;
    assert.deepEqual((await app.api.get(`/groups/${group}/access-levels`)).body, { connector: null, access_levels: [{ access_level_name: '', access_level_remote_id: '', carries_access: true }] });
  });

  it('the dry run of a request for a level that carries nothing answers a warning; for a role, none', async () => {
    const dryRun = (level: string, id = database) => member.api.post('/requests', {
      resources: [{ id, access_level_remote_id: level }], groups: [], reason: 'reports', duration_minutes: 60,
    }, { query: { dry_run: true } });
    const atDefault = await dryRun('');
    assert.equal(atDefault.status, 200, JSON.stringify(atDefault.body));
    assert.match(atDefault.body.items[0].warning, /grants nothing in PostgreSQL/);
    assert.equal((await dryRun('orders_read')).body.items[0].warning, undefined);
    assert.equal((await dryRun('', plain)).body.items[0].warning, undefined);
    // Still a request Gatehouse accepts: the API tells, it does not refuse.
    const real = await member.api.post('/requests', { resources: [{ id: database, access_level_remote_id: '' }], groups: [], reason: 'reports', duration_minutes: 60 });
    assert.equal(real.status, 200, JSON.stringify(real.body));
  });

  it('404 for an unknown item, as the item routes answer', async () => {
    assert.equal((await app.api.get(`/resources/${NO_SUCH_ID}/access-levels`)).status, 404);
    assert.equal((await app.api.get(`/groups/${NO_SUCH_ID}/access-levels`)).status, 404);
  });
});
