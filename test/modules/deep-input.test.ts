// Deeply nested JSON on every route that takes a body: past the documented depth the answer is 400 in
// the one error shape naming the limit (never a 500 from a walk overflowing the stack), and nothing changes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SERVED_AREAS as AREAS } from '../../src/app.ts';
import { MAX_JSON_DEPTH } from '../../src/lib/json-depth.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { readEvents } from '../helpers/events.ts';
import { NO_SUCH_ID } from '../helpers/fixtures.ts';
import { scimClientFor } from '../helpers/scim-client.ts';
import { SIGNING_SECRET, SLACK_TOKEN, signedInteraction } from '../helpers/slack-stand-in.ts';

/** JSON text of lists nested `depth` deep: [[[…]]]. */
const deepList = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
/** JSON text of objects nested `depth` deep: {"a":{"a":…{}}}. */
const deepObject = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

/** The top-level field names of a body schema (through optional and pipe wrappers), for placing deep values at each. */
function fieldsOf(schema: unknown): string[] {
  let at = schema as { wrapped?: unknown; entries?: Record<string, unknown> } | undefined;
  while (at?.wrapped) at = at.wrapped as typeof at;
  return Object.keys(at?.entries ?? {});
}

/**
 * Every declared route with a body under `prefix`, the prefix taken off and its path parameters filled (a
 * UUID, or a word for the few that are not). /v1's go through the API client, SCIM's (at /scim/v2, mounted
 * through the same router) through the SCIM client with a SCIM token, as identity providers send them.
 */
const routesUnder = (prefix: string) => AREAS.flatMap((area) => Object.entries(area.routes?.operations ?? {}))
  .filter(([key, route]) => route?.body !== undefined && key.split(' ')[1]!.startsWith(`${prefix}/`))
  .map(([key, route]) => {
    const [method, path] = key.split(' ') as [string, string];
    const filled = path.slice(prefix.length).replace(/\{([^}]+)\}/g, (_, name: string) => (route!.pathParams?.[name] ? 'deep' : NO_SUCH_ID));
    return { key, method, path: filled, fields: fieldsOf(route!.body) };
  });
const ROUTES = routesUnder('/v1');
const SCIM_ROUTES = routesUnder('/scim/v2');

/** The bodies sent to each route: nested past the limit whole, and at each of its fields. */
const deepBodies = (fields: string[]): [string, string][] => [
  ['a list 5,000 deep', deepList(5000)],
  ['an object 5,000 deep', deepObject(5000)],
  [`a list ${MAX_JSON_DEPTH + 1} deep`, deepList(MAX_JSON_DEPTH + 1)],
  ...fields.map((field): [string, string] => [`${field}: a list 5,000 deep`, `{"${field}":${deepList(5000)}}`]),
  ...fields.map((field): [string, string] => [`${field}: an object 5,000 deep`, `{"${field}":${deepObject(5000)}}`]),
];

describe('deep JSON bodies', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { GATEHOUSE_SLACK_SIGNING_SECRET: SIGNING_SECRET, GATEHOUSE_SLACK_BOT_TOKEN: SLACK_TOKEN } });
  });
  after(() => app.close());

  it('finds the routes with a body from their declarations', () => {
    assert.ok(ROUTES.length >= 50, `only ${ROUTES.length} routes with a body were found`);
    assert.ok(ROUTES.some((route) => route.key === 'POST /v1/requests'));
  });

  it(`refuses a body nested past ${MAX_JSON_DEPTH} on every route, naming the limit, and records nothing`, async () => {
    // Break-glass records every refused attempt, a malformed one included (docs: BREAK_GLASS_REFUSED); nothing else may record.
    const recorded = async () => (await readEvents(app.api, {})).filter((event) => event.event_type !== 'BREAK_GLASS_REFUSED').length;
    const before = await recorded();
    const failures: string[] = [];
    for (const route of ROUTES) {
      for (const [what, text] of deepBodies(route.fields)) {
        const res = await app.api.request(route.method, route.path, undefined, {
          rawBody: text, headers: { 'content-type': 'application/json' }, expectServerError: true,
        });
        const named = res.body?.code === 'validation_failed' && String(res.body.message).includes(`${MAX_JSON_DEPTH} deep`);
        if (res.status !== 400 || !named) failures.push(`${route.key} with ${what} → ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      }
    }
    assert.deepEqual(failures, []);
    assert.equal(await recorded(), before);
  });

  it(`refuses a SCIM body nested past ${MAX_JSON_DEPTH} on every SCIM route, in SCIM's error shape, and records nothing`, async () => {
    assert.ok(SCIM_ROUTES.some((route) => route.key === 'POST /scim/v2/Users') && SCIM_ROUTES.some((route) => route.key === 'PATCH /scim/v2/Groups/{id}'));
    const scim = await scimClientFor(app);
    const before = (await readEvents(app.api, {})).length;
    const failures: string[] = [];
    for (const route of SCIM_ROUTES) {
      for (const [what, text] of deepBodies(route.fields)) {
        const res = await scim.request(route.method, route.path, text);
        const named = res.body?.status === '400' && String(res.body.detail).includes(`${MAX_JSON_DEPTH} deep`);
        if (res.status !== 400 || !named) failures.push(`${route.key} with ${what} → ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      }
    }
    assert.deepEqual(failures, []);
    assert.equal((await readEvents(app.api, {})).length, before);
  });

  it('refuses the deepest body the size cap lets through (500,000 lists in 1 MB) the same way', async () => {
    const text = deepList(500_000);
    assert.ok(Buffer.byteLength(text) <= app.ctx.config.maxBodyBytes);
    const res = await app.api.request('POST', '/users', undefined, { rawBody: text, headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.details[0].message, `nests objects and lists more than ${MAX_JSON_DEPTH} deep, the limit`);
  });

  it('declares the depth in the API document', async () => {
    const document = (await (await fetch(app.url.replace(/\/v1$/, '') + '/openapi.json')).json()) as { info: Record<string, unknown> };
    assert.equal(document.info['x-gatehouse-max-json-depth'], MAX_JSON_DEPTH);
    assert.match(String(document.info.description), new RegExp(`at most ${MAX_JSON_DEPTH} deep`));
  });

  it(`takes a body nested exactly ${MAX_JSON_DEPTH} deep to validation`, async () => {
    const res = await app.api.request('POST', '/users', undefined, {
      rawBody: `{"email":${deepList(MAX_JSON_DEPTH - 1)},"full_name":"F"}`, headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.details, [{ path: 'email', message: 'must be a string' }]);
  });

  it('names where the body goes too deep', async () => {
    const res = await app.api.request('POST', '/users', undefined, {
      rawBody: `{"email":"a@example.com","full_name":{"x":${deepList(200)}}}`, headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.details.length, 1);
    const path: string = res.body.details[0].path;
    assert.ok(path.startsWith('full_name.x.0.0.'), path);
    assert.equal(path.split('.').length, MAX_JSON_DEPTH);
  });

  it('refuses a Slack interaction whose payload nests past the limit, before anything reads it', async () => {
    const deep = signedInteraction(JSON.parse(`{"type":"block_actions","actions":[],"x":${deepList(500)}}`), Math.floor(app.clock.now().getTime() / 1000));
    const res = await fetch(app.url.replace(/\/v1$/, '') + '/slack/interactivity', { method: 'POST', body: deep.body, headers: deep.headers });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { code: string; details: { path: string; message: string }[] };
    assert.equal(body.code, 'validation_failed');
    assert.deepEqual(body.details, [{ path: 'payload', message: `nests objects and lists more than ${MAX_JSON_DEPTH} deep, the limit` }]);
  });
});
