// Delivery survives a crash: a real `serve` with pushes queued and in flight is killed with SIGKILL;
// restarted, it delivers every one, and the connector ends with exactly Gatehouse's edges.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ApiClient } from '../helpers/client.ts';
import { OpalConnector } from '../helpers/opal-connector.ts';
import { PATIENCE_MS, until } from '../helpers/wait.ts';
import { ServiceProcess } from './helpers/gatehouse-process.ts';

const TOKEN = 'gth_connector-crash-admin-token-0123456789';
const SECRET = 'crash-signing-secret';
const USERS = 12;

describe('connector delivery across a crash', () => {
  it('delivers every queued push after a SIGKILL, in order per edge, none lost', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-conn-crash-'));
    const db = join(dir, 'crash.db');
    const remote = await new OpalConnector(SECRET).start();
    remote.pageSize = 100;
    const env = { ...process.env, GATEHOUSE_LOG_LEVEL: 'info', GATEHOUSE_BOOTSTRAP_TOKEN: TOKEN, GATEHOUSE_OUTBOX_INTERVAL_MS: '50', GATEHOUSE_CONNECTOR_SYNC_INTERVAL_MS: '0' };
    let service = await ServiceProcess.start(['--db', db, '--port', '0'], { env });
    try {
      let api = new ApiClient(service.url, TOKEN);
      const owner = (await api.post('/owners', { name: 'crash owner', user_ids: [] })).body.owner_id;
      const appId = (await api.post('/apps', { name: 'crash app', description: '', app_type: 'CUSTOM_CONNECTOR', admin_owner_id: owner })).body.app_id;
      const users: string[] = [];
      for (let i = 0; i < USERS; i++) {
        const user = (await api.post('/users', { email: `crash-${i}@example.com`, full_name: `Crash ${i}` })).body;
        users.push(user.user_id);
        remote.users.set(`u${i}`, user.email);
      }
      remote.resources.set('r1', { name: 'one', levels: [], users: new Map() });
      assert.equal((await api.put(`/apps/${appId}/connector`, { url: remote.url, signing_secret: SECRET, timeout_ms: 60_000 })).status, 200);
      assert.equal((await api.post(`/apps/${appId}/connector/sync`)).body.ok, true);
      const resourceId = (await api.get('/resources', { page_size: 100 })).body.results.find((r: { app_id: string }) => r.app_id === appId).resource_id;

      // Every push hangs at the connector: they are queued and in flight when the process dies.
      remote.outage = 'slow';
      remote.slowMs = 120_000;
      const expected: string[] = [];
      for (let i = 0; i < USERS; i++) {
        assert.equal((await api.post(`/resources/${resourceId}/users/${users[i]}`, { duration_minutes: 0 })).status, 200);
        // Every third grant is revoked at once: both queued, in order, for one edge.
        if (i % 3 === 0) assert.ok([200, 204].includes((await api.delete(`/resources/${resourceId}/users/${users[i]}`)).status));
        else expected.push(`resource_user:u${i}:r1:`);
      }
      // Wait until pushes reach the connector (in flight), then kill.
      await until(() => remote.calls.some((c) => c.method !== 'GET'), 'pushes in flight before the kill');
      service.child.kill('SIGKILL');
      await service.exited;

      remote.outage = null;
      service = await ServiceProcess.start(['--db', db, '--port', '0'], { env });
      api = new ApiClient(service.url, TOKEN);
      const deadline = Date.now() + PATIENCE_MS;
      while (Date.now() < deadline) {
        const pending = (await api.get('/propagations', { app_id: appId })).body.results.length;
        if (pending === 0 && JSON.stringify(remote.edges()) === JSON.stringify(expected.sort())) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.deepEqual(remote.edges(), expected.sort());
      assert.equal((await api.get('/propagations', { app_id: appId })).body.results.length, 0);
      assert.equal(remote.badSignatures, 0);
      const statuses = (await api.get(`/resources/${resourceId}/users`)).body.results.map((r: { propagation_status: { status: string } }) => r.propagation_status.status);
      assert.deepEqual([...new Set(statuses)], ['SUCCESS']);
    } finally {
      service.child.kill('SIGKILL');
      await service.exited;
      await remote.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
