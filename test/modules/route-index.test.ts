// The indexed route search (src/http/route-index.ts) finds what Polka's own search finds: the same
// handlers in the same order and the same params, for every declared route's path (in other cases, with
// a trailing slash, with a segment changed or added) under every method, and for paths no route serves.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Trouter } from 'trouter';
import { createApp } from '../../src/app.ts';
import { RouteTable } from '../../src/http/router.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

type Find = (method: string, url: string) => { params: Record<string, string>; handlers: unknown[] };

describe('the indexed route search', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    await app.close();
  });

  it('answers as Polka\'s linear search for every route, its variants and unserved paths', () => {
    const table = new RouteTable();
    const polka = createApp(app.ctx, table);
    const indexed = (polka as unknown as { find: Find }).find.bind(polka);
    const linear = (Trouter.prototype.find as unknown as Find).bind(polka);
    assert.notEqual(indexed, linear);

    const paths = new Set<string>(['/', '//v1', '/v1', '/v1/', '/V1/USERS', '/nowhere', '/v1/nowhere/at/all', '/scim/v2/Users', '/healthz', '/openapi.json', '/openapiXjson', '/console', '/docs/']);
    for (const key of table.list()) {
      const path = key.slice(key.indexOf(' ') + 1);
      const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => `${name}-1`);
      paths.add(filled);
      paths.add(filled.toUpperCase());
      paths.add(`${filled}/`);
      paths.add(`${filled}/extra`);
      paths.add(filled.replace(/\/[^/]*$/, '/other'));
      paths.add(filled.replace(/^\/[^/]+/, '/x'));
      paths.add(filled.replace(/^(\/[^/]+)\/[^/]+/, '$1/%7Bx%7D'));
    }
    const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND'];
    let compared = 0;
    let matched = 0;
    for (const path of paths) {
      for (const method of methods) {
        const want = linear(method, path);
        const got = indexed(method, path);
        assert.deepEqual(got.params, want.params, `${method} ${path}: params`);
        assert.equal(got.handlers.length, want.handlers.length, `${method} ${path}: handlers`);
        got.handlers.forEach((handler, i) => assert.equal(handler, want.handlers[i], `${method} ${path}: handler ${i}`));
        compared += 1;
        if (want.handlers.length > 3) matched += 1;
      }
    }
    // Most of them reach a route (beyond the global middleware): the comparison is not only of misses.
    assert.ok(matched > table.list().length, `${matched} of ${compared} reached a route`);
  });
});
