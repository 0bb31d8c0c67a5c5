// The API pages in docs/ and the router agree: every route in the table is named on some docs/*.md page,
// and every operation a page (or the README) names as a code span (`GET /v1/users/{user_id}`) is routed.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../../src/app.ts';
import { README } from '../../src/dev/settings-table.ts';
import { RouteTable } from '../../src/http/router.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app.ts';

const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));

interface Claim {
  file: string;
  method: string;
  /** The path as written, `{param}` placeholders and all, without any query string. */
  path: string;
}

/** Every code span in docs/*.md (and the README) that starts with an HTTP method and a path: each claims an operation. */
function documentedOperations({ withReadme = false } = {}): Claim[] {
  const files = readdirSync(DOCS).filter((name) => name.endsWith('.md')).map((name) => join(DOCS, name));
  return [...files, ...(withReadme ? [README] : [])].flatMap((path) => {
    const file = relative(join(DOCS, '..'), path);
    const text = readFileSync(path, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    return [...text.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s?]*)(?:\?[^`]*)?`/g)].map((m) => ({ file, method: m[1]!, path: m[2]! }));
  });
}

/** `/v1/users/:user_id` → `/v1/users/{user_id}`, the form the pages use. */
const asDocumented = (template: string) => template.replace(/:([A-Za-z_]+)/g, '{$1}');

describe('API pages in docs/', () => {
  let app: TestApp;
  /** Every route in the table, as a page names it: `GET /v1/users/{user_id}`. */
  let routes: string[];
  before(async () => {
    app = await startTestApp();
    const table = new RouteTable();
    createApp(app.ctx, table);
    routes = table.list().map(asDocumented);
  });
  after(() => app.close());

  it('find the routes and the operations at all (a broken reader would pass the checks below)', () => {
    assert.ok(routes.length > 50, `only ${routes.length} routes registered`);
    assert.ok(documentedOperations().length > 50, 'fewer than 50 operations found in docs/*.md');
  });

  it('document every registered route', () => {
    const documented = new Set(documentedOperations().map((c) => `${c.method} ${c.path}`));
    const missing = routes.filter((op) => !documented.has(op));
    assert.deepEqual(missing, [], 'routes no docs/*.md page names as a code span `METHOD /path/{param}`');
  });

  it('name only operations that are routed, placeholders spelled as the route\'s parameters', async () => {
    const routed = new Set(routes);
    const unknown: string[] = [];
    for (const claim of documentedOperations({ withReadme: true })) {
      if (routed.has(`${claim.method} ${claim.path}`)) continue;
      if (claim.path.startsWith('/v1/')) {
        unknown.push(`${claim.file}: ${claim.method} ${claim.path}`);
        continue;
      }
      // Outside /v1 a route may be registered on Polka directly, past the table: ask the service.
      // With a token, because an unknown path answers 401 rather than 404 to a caller without one.
      if (/[{}]/.test(claim.path)) unknown.push(`${claim.file}: ${claim.method} ${claim.path} (placeholders outside /v1)`);
      const res = await fetch(new URL(claim.path, app.url), { method: claim.method, headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
      await res.arrayBuffer();
      if (res.status === 404 || res.status === 405) unknown.push(`${claim.file}: ${claim.method} ${claim.path} → ${res.status}`);
    }
    assert.deepEqual(unknown, [], 'operations named in docs/*.md that the service does not route');
  });
});
