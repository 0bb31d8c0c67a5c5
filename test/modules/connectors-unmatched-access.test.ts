// Access a sync finds held remotely by people Gatehouse does not know (extension): GET
// /v1/resources/{id}/unmatched-remote-users and the groups' twin, against a real Opal-protocol connector on loopback.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createMember, createUser, NO_SUCH_ID } from '../helpers/fixtures.ts';
import { errorPaths } from '../helpers/errors.ts';
import { OpalConnector } from '../helpers/opal-connector.ts';

const SECRET = 'unmatched-access-signing-secret';

describe('connectors: access held by remote users nobody here matches', () => {
  let app: TestApp;
  let remote: OpalConnector;
  let appId: string;
  let resourceId: string;
  let groupId: string;

  const sync = async () => {
    const res = await app.api.post(`/apps/${appId}/connector/sync`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.ok, true, JSON.stringify(res.body));
  };
  const unmatched = async (path: string) => {
    const res = await app.api.get(path);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.results as { remote_user_id: string; email: string; access_level_remote_id: string; found_at: string }[];
  };

  before(async () => {
    app = await startTestApp();
    remote = await new OpalConnector(SECRET).start();
    const known = await createUser(app.api);
    remote.users.set('u-known', known.email);
    remote.users.set('u-contractor', 'contractor@elsewhere.example');
    remote.users.set('u-vendor', 'vendor@elsewhere.example');
    remote.resources.set('r-db', {
      name: 'Orders database', levels: [{ id: 'read', name: 'Read' }],
      users: new Map([['u-known', new Set(['read'])], ['u-contractor', new Set(['read', ''])], ['u-vendor', new Set(['read'])]]),
    });
    remote.groups.set('g-ops', { name: 'Operations', users: new Set(['u-contractor', 'u-known']), resources: new Set(), memberGroups: new Set() });
    appId = (await createApp(app.api, { app_type: 'CUSTOM_CONNECTOR' })).app_id;
    assert.equal((await app.api.put(`/apps/${appId}/connector`, { url: remote.url, signing_secret: SECRET, drift_policy: 'IMPORT' })).status, 200);
    await sync();
    resourceId = (await app.api.get('/resources', { app_id: appId })).body.results[0].resource_id;
    groupId = (await app.api.get('/groups', { app_id: appId })).body.results[0].group_id;
  });
  after(async () => {
    await app?.close();
    await remote?.stop();
  });

  it('lists the remote users nobody here matches with what they hold, apart from the holders Gatehouse knows', async () => {
    const onResource = await unmatched(`/resources/${resourceId}/unmatched-remote-users`);
    assert.deepEqual(onResource.map((r) => [r.remote_user_id, r.email, r.access_level_remote_id]).sort(), [
      ['u-contractor', 'contractor@elsewhere.example', ''],
      ['u-contractor', 'contractor@elsewhere.example', 'read'],
      ['u-vendor', 'vendor@elsewhere.example', 'read'],
    ]);
    assert.ok(onResource.every((r) => r.found_at === app.clock.now().toISOString()));
    const onGroup = await unmatched(`/groups/${groupId}/unmatched-remote-users`);
    assert.deepEqual(onGroup.map((r) => [r.remote_user_id, r.access_level_remote_id]), [['u-contractor', '']]);
    // The matched holder is Gatehouse's (imported), not listed here.
    const holders = (await app.api.get(`/resources/${resourceId}/users`)).body.results.map((r: { user_id: string }) => r.user_id);
    assert.equal(holders.length, 1);
  });

  it('pages with a cursor', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await app.api.get(`/resources/${resourceId}/unmatched-remote-users`, { page_size: 1, cursor });
      assert.equal(page.status, 200);
      assert.ok(page.body.results.length <= 1);
      seen.push(...page.body.results.map((r: { remote_user_id: string; access_level_remote_id: string }) => `${r.remote_user_id}/${r.access_level_remote_id}`));
      cursor = page.body.next ?? undefined;
    } while (cursor);
    assert.equal(seen.length, 3);
    assert.equal(new Set(seen).size, 3);
  });

  it('starts afresh with each sync: access ended remotely, or a person now known, leaves the list', async () => {
    remote.resources.get('r-db')!.users.delete('u-vendor');
    await createUser(app.api, { email: 'contractor@elsewhere.example' });
    await sync();
    assert.deepEqual(await unmatched(`/resources/${resourceId}/unmatched-remote-users`), []);
    assert.deepEqual(await unmatched(`/groups/${groupId}/unmatched-remote-users`), []);
  });

  it('is emptied when the connector is removed', async () => {
    remote.users.set('u-temp', 'temp@elsewhere.example');
    remote.resources.get('r-db')!.users.set('u-temp', new Set(['read']));
    await sync();
    assert.equal((await unmatched(`/resources/${resourceId}/unmatched-remote-users`)).length, 1);
    assert.equal((await app.api.delete(`/apps/${appId}/connector`)).status, 200);
    assert.deepEqual(await unmatched(`/resources/${resourceId}/unmatched-remote-users`), []);
  });

  it('is for admins; an unknown item is 404 and a bad page size 400, naming the field', async () => {
    const member = await createMember(app.api);
    assert.equal((await member.api.get(`/resources/${resourceId}/unmatched-remote-users`)).status, 403);
    const missing = await app.api.get(`/groups/${NO_SUCH_ID}/unmatched-remote-users`);
    assert.equal(missing.status, 404);
    assert.deepEqual(errorPaths(missing.body), ['group_id']);
    const badSize = await app.api.get(`/resources/${resourceId}/unmatched-remote-users`, { page_size: 0 });
    assert.equal(badSize.status, 400);
    assert.deepEqual(errorPaths(badSize.body), ['page_size']);
  });
});
