// Areas declare their routes once, and a declaration the policy or the visibility guard could not
// enforce stops the app from being built at all: a missing role, a path parameter nobody said names
// an item or not, a handler for a route nobody declared, a declared route nobody handles.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as v from 'valibot';
import { AREAS, createApp } from '../../src/app.ts';
import { defineArea, type Area } from '../../src/area.ts';
import { ok } from '../../src/http/router.ts';
import { RouteTable } from '../../src/http/router.ts';
import { defineRoutes, type RouteDeclaration } from '../../src/http/route.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const doc = { summary: 'Read a widget', responses: { 200: v.object({}) } };

/** An area serving one route, declared as `route` and handled under `handled` (the declared key by default). */
function areaWith(key: `GET /${string}` | `POST /${string}`, route: Partial<RouteDeclaration>, handled: `GET /${string}` | `POST /${string}` | null = key): Area {
  return defineArea({
    name: 'widgets',
    routes: defineRoutes('widgets', { [key]: { ...doc, ...route } as RouteDeclaration }),
    handlers: (router) => {
      if (handled) router.on(handled, () => ok({}));
    },
  });
}

describe('areas declare their routes once, checked at start-up', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  const build = (area: Area) => () => createApp(app.ctx, new RouteTable(), [area]);

  it('builds an app from a well-declared area, its route in the table with its declaration', () => {
    const table = new RouteTable();
    createApp(app.ctx, table, [areaWith('GET /v1/widgets/{widget_id}', { role: 'read', items: { widget_id: null } })]);
    assert.deepEqual(table.list().filter((key) => key.startsWith('GET /v1')), ['GET /v1/widgets/{widget_id}']);
    assert.deepEqual(table.declared().map((route) => route.route.role), ['read']);
  });

  it('refuses a route without a role', () => {
    assert.throws(build(areaWith('GET /v1/widgets', {})), /route GET \/v1\/widgets: role must be one of read, admin-read, member, admin/);
  });

  it('refuses a role that does not fit the method', () => {
    assert.throws(build(areaWith('GET /v1/widgets', { role: 'admin' })), /a GET only reads/);
    assert.throws(build(areaWith('POST /v1/widgets', { role: 'admin-read' })), /admin-read is for GET routes/);
  });

  it('refuses a path parameter not declared as naming an item or not', () => {
    assert.throws(
      build(areaWith('GET /v1/widgets/{id}', { role: 'read' })),
      /route GET \/v1\/widgets\/\{id\}: path parameter \{id\} is not declared in items/,
    );
    assert.throws(build(areaWith('GET /v1/widgets/{id}', { role: 'read', items: {} })), /path parameter \{id\} is not declared/);
  });

  it('refuses an item kind the guard does not know, and an item the path does not have', () => {
    assert.throws(
      build(areaWith('GET /v1/widgets/{id}', { role: 'read', items: { id: 'widget' as never } })),
      /\{id\} names widget, which is not one of resource, group, bundle or null/,
    );
    assert.throws(build(areaWith('GET /v1/widgets', { role: 'read', items: { widget_id: null } })), /items names \{widget_id\}, which the path does not have/);
  });

  it('refuses a handler for an undeclared route, and a declared route without a handler', () => {
    assert.throws(build(areaWith('GET /v1/widgets', { role: 'read' }, 'GET /v1/gadgets')), /area widgets: a handler for GET \/v1\/gadgets, which its routes do not declare/);
    assert.throws(build(areaWith('GET /v1/widgets', { role: 'read' }, null)), /area widgets: no handler for GET \/v1\/widgets/);
  });

  it('refuses a route or a store declared by two areas', () => {
    const widgets = areaWith('GET /v1/widgets', { role: 'read' });
    assert.throws(() => createApp(app.ctx, new RouteTable(), [widgets, { ...widgets, name: 'gadgets' }]), /route GET \/v1\/widgets is declared by two areas/);
    const tags = AREAS.find((area) => area.name === 'tags')!;
    assert.throws(() => createApp(app.ctx, new RouteTable(), [tags, { name: 'more-tags', stores: tags.stores }]), /area more-tags: store tags is built by another area too/);
  });

  it('declares every route of every area with a role, and every path parameter as naming an item or not', () => {
    // createApp above would have thrown otherwise; this names the totals so a silent empty list fails.
    const routes = AREAS.flatMap((area) => Object.entries(area.routes?.operations ?? {}));
    assert.ok(routes.length > 140, `only ${routes.length} routes declared`);
    const withItems = routes.filter(([, route]) => Object.values(route!.items ?? {}).some((kind) => kind !== null));
    assert.ok(withItems.length > 60, `only ${withItems.length} routes name an item the guard checks`);
  });
});
