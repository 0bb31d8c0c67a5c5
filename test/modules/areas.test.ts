// What areas declare beyond routes is checked before the app serves: a stored connector whose type has
// no adapter (or a table of connector types that contradicts itself), and an outbox kind or read task two areas claim, stop it at start with a message naming them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AREAS, createApp } from '../../src/app.ts';
import { defineArea } from '../../src/area.ts';
import { createContext } from '../../src/context.ts';
import { RouteTable } from '../../src/http/router.ts';
import * as v from 'valibot';
import type { AppContext } from '../../src/context.ts';
import type { ConnectorKind } from '../../src/modules/connectors/adapter.ts';
import { checkKinds, CONNECTOR_KINDS } from '../../src/modules/connectors/adapters.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp as createTestApp } from '../helpers/fixtures.ts';

describe('area declarations', () => {
  let app: TestApp;
  before(async () => (app = await startTestApp()));
  after(() => app.close());

  it('a stored connector whose type has no adapter stops the app at start, naming the type; the table serves every type', async () => {
    // A POSTGRES connector in the database, and a build whose table lacks the PostgreSQL adapter.
    const pgApp = await createTestApp(app.api, { app_type: 'POSTGRES' });
    assert.equal((await app.api.put(`/apps/${pgApp.app_id}/connector`, { connection_url: 'postgres://gatehouse@db.example.com/app' })).status, 200);
    const withoutPostgres = CONNECTOR_KINDS.filter((kind) => kind.type !== 'POSTGRES');
    const areas = AREAS.map((area) => (area.name === 'connectors' ? { ...area, checks: [(ctx: AppContext) => checkKinds(withoutPostgres, ctx.stores.connectors.types())] } : area));
    assert.throws(() => createApp(app.ctx, new RouteTable(), areas), /connector type POSTGRES has no adapter/);
    assert.doesNotThrow(() => createApp(app.ctx, new RouteTable(), AREAS));
    // Without such a connector, the build without it starts.
    assert.equal((await app.api.delete(`/apps/${pgApp.app_id}/connector`)).status, 200);
    assert.doesNotThrow(() => createApp(app.ctx, new RouteTable(), areas));
  });

  it('a table of connector types that contradicts itself stops the app at start', () => {
    const [opal] = CONNECTOR_KINDS as [ConnectorKind, ...ConnectorKind[]];
    assert.throws(() => checkKinds([opal, opal]), /connector type OPAL_HTTP has two adapters/);
    assert.throws(() => checkKinds([opal, { ...opal, type: 'OTHER' }]), /app type CUSTOM_CONNECTOR has two connector types/);
    assert.throws(() => checkKinds([{ ...opal, appType: 'NOT_AN_APP_TYPE' }]), /app type NOT_AN_APP_TYPE is not an AppTypeEnum value/);
    assert.throws(() => checkKinds([{ ...opal, resourceType: 'NOPE' }]), /resource type NOPE is not a ResourceTypeEnum value/);
    assert.throws(() => checkKinds([{ ...opal, secrets: { password: 'secret' } }]), /secret password is not a field of its configuration/);
    assert.throws(() => checkKinds([{ ...opal, configuration: v.object({ host: v.string() }), secrets: {} }]), /field host has no v.title/);
    assert.doesNotThrow(() => checkKinds(CONNECTOR_KINDS));
  });

  it('an outbox kind or a read task declared by two areas stops the context being built, naming both', () => {
    const parts = { db: app.ctx.db, clock: app.clock, config: app.ctx.config, log: app.ctx.log };
    const push = AREAS.find((area) => area.name === 'connectors')!.outbox!;
    const twice = defineArea({ name: 'pushes-too', outbox: push });
    assert.throws(() => createContext(parts, [...AREAS, twice]), /area pushes-too: outbox kind connector\.push is run by another area too/);
    const resources = AREAS.find((area) => area.name === 'resources')!;
    const reads = defineArea({ name: 'lists-too', readTasks: resources.readTasks! });
    assert.throws(() => createContext(parts, [...AREAS, reads]), /area lists-too: read task resources\.list is declared by another area too/);
  });
});
