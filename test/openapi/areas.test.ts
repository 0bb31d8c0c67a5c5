// Areas declare their routes once, and a declaration the policy or the visibility guard could not
// enforce stops the app from being built at all: a missing role, a path parameter nobody said names
// an item or not, a handler for a route nobody declared, a declared route nobody handles.
import assert from 'node:assert/strict';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import * as v from 'valibot';
import { SERVED_AREAS as AREAS, createApp } from '../../src/app.ts';
import { defineArea, type Area } from '../../src/area.ts';
import { ok } from '../../src/http/router.ts';
import { RouteTable } from '../../src/http/router.ts';
import { defineRoutes, type RouteDeclaration } from '../../src/http/route.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app.ts';
import { errorPaths } from '../helpers/errors.ts';

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
    assert.deepEqual(table.declared().filter((route) => route.protocol.name === 'v1').map((route) => route.route.role), ['read']);
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

describe('a handler receives the input its route declares, typed', () => {
  // A made-up area, outside the API document, so its answers are checked here field by field.
  const Widget = v.object({ name: v.string(), size: v.optional(v.number()) });
  const widgets = defineArea({
    name: 'widgets',
    routes: defineRoutes('widgets', {
      'POST /v1/widgets': { ...doc, role: 'admin', query: v.object({ dry_run: v.optional(v.picklist(['true', 'false'])) }), body: Widget },
      'GET /v1/widgets': { ...doc, role: 'read' },
    }),
    handlers: (router) => {
      router.on('POST /v1/widgets', async (req) => {
        // Typed by the declaration: `name` is a string, `dry_run` one of two words.
        const { name, size } = await req.body();
        const dryRun: 'true' | 'false' | undefined = req.query().dry_run;
        return ok({ name: name.toUpperCase(), size: size ?? null, dry_run: dryRun ?? null });
      });
      router.on('GET /v1/widgets', (req) => {
        // @ts-expect-error the route declares no query, so its handler has none to read
        const read: unknown = req.query();
        return ok({ read });
      });
    },
  });

  let app: TestApp;
  let server: Server;
  let url: string;
  before(async () => {
    app = await startTestApp();
    server = createServer(createApp(app.ctx, new RouteTable(), [widgets]).handler as unknown as RequestListener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await app.close();
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(url + path, {
      method,
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as { code?: string; details: { path: string }[] } };
  };

  it('parses the body and the query by the declared schemas', async () => {
    assert.deepEqual(await call('POST', '/v1/widgets?dry_run=true', { name: 'cog', size: 3 }), { status: 200, body: { name: 'COG', size: 3, dry_run: 'true' } });
  });

  it('refuses input the declared schemas refuse, naming each field', async () => {
    const badBody = await call('POST', '/v1/widgets', { name: 7, size: 'big' });
    assert.equal(badBody.status, 400);
    assert.equal(badBody.body.code, 'validation_failed');
    assert.deepEqual(errorPaths(badBody.body), ['name', 'size']);
    const badQuery = await call('POST', '/v1/widgets?dry_run=maybe', { name: 'cog' });
    assert.equal(badQuery.status, 400);
    assert.deepEqual(errorPaths(badQuery.body), ['dry_run']);
    const repeated = await call('POST', '/v1/widgets?dry_run=true&dry_run=false', { name: 'cog' });
    assert.deepEqual(errorPaths(repeated.body), ['dry_run']);
    // A strict client's JSON null is no body, which this route requires.
    const none = await call('POST', '/v1/widgets', null);
    assert.equal(none.status, 400);
    assert.deepEqual(errorPaths(none.body), ['body']);
  });

  it('answers 500, naming nothing internal, when a handler reads a query its route does not declare', async () => {
    const res = await call('GET', '/v1/widgets');
    assert.equal(res.status, 500);
    assert.equal(res.body.code, 'internal');
    assert.doesNotMatch(JSON.stringify(res.body), /declares no query/);
    assert.ok(app.logs.some((line) => line.level === 'error' && /route GET \/v1\/widgets declares no query schema/.test(JSON.stringify(line))));
  });
});
