// What areas declare beyond routes is checked before the app serves: a connector type without an
// adapter, and an outbox kind or read task two areas claim, stop it at start with a message naming them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AREAS, createApp } from '../../src/app.ts';
import { defineArea } from '../../src/area.ts';
import { createContext } from '../../src/context.ts';
import { RouteTable } from '../../src/http/router.ts';
import { checkAdapters, CONNECTOR_ADAPTERS } from '../../src/modules/connectors/adapters.ts';
import { CONNECTOR_TYPES } from '../../src/modules/connectors/schemas.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

describe('area declarations', () => {
  let app: TestApp;
  before(async () => (app = await startTestApp()));
  after(() => app.close());

  it('a connector type without an adapter stops the app at start, naming the type; the table serves every type', () => {
    const { POSTGRES: _dropped, ...withoutPostgres } = CONNECTOR_ADAPTERS;
    const areas = AREAS.map((area) => (area.name === 'connectors' ? { ...area, checks: [() => checkAdapters(withoutPostgres)] } : area));
    assert.throws(() => createApp(app.ctx, new RouteTable(), areas), /connector type POSTGRES has no adapter/);
    assert.throws(() => checkAdapters({}), new RegExp(`connector type ${CONNECTOR_TYPES.join(', ')} has no adapter`));
    assert.doesNotThrow(() => checkAdapters(CONNECTOR_ADAPTERS));
    assert.doesNotThrow(() => createApp(app.ctx, new RouteTable(), AREAS));
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
