// The API document and the router in step: every route is documented, every documented operation is
// routed, and the document builds with what each operation takes described.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_OPERATIONS, createApp } from '../../src/app.ts';
import { RouteTable } from '../../src/http/router.ts';
import { buildOpenApiDocument } from '../../src/openapi/document.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

type Json = Record<string, any>;

describe('API document and router', () => {
  let app: TestApp;
  let routed: string[];
  let documented: string[];
  before(async () => {
    app = await startTestApp();
    const table = new RouteTable();
    createApp(app.ctx, table);
    // Polka's `:name` is the document's `{name}`.
    routed = table.list().map((route) => route.replace(/:(\w+)/g, '{$1}'));
    documented = API_OPERATIONS.flatMap((group) => Object.keys(group.operations));
  });
  after(() => app.close());

  it('documents every registered route', () => {
    const missing = routed.filter((route) => !documented.includes(route));
    assert.deepEqual(missing, [], `routes without a document entry (declare them in the area's routes.ts, and the area in AREAS in src/app.ts): ${missing.join(', ')}`);
  });

  it('routes every documented operation', () => {
    const unrouted = documented.filter((key) => !routed.includes(key));
    assert.deepEqual(unrouted, [], `documented operations no route serves: ${unrouted.join(', ')}`);
  });

  it('documents each operation once', () => {
    const twice = documented.filter((key, i) => documented.indexOf(key) !== i);
    assert.deepEqual(twice, [], `documented twice: ${twice.join(', ')}`);
    assert.ok(routed.length > 50, `only ${routed.length} routes found: is the route table being filled?`);
  });

  it('describes every parameter and request body it takes', () => {
    const doc = buildOpenApiDocument(API_OPERATIONS) as Json;
    const problems: string[] = [];
    const operationIds = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        const key = `${method.toUpperCase()} ${path}`;
        if (!op.summary) problems.push(`${key}: no summary`);
        if (operationIds.has(op.operationId)) problems.push(`${key}: operationId ${op.operationId} is taken`);
        operationIds.add(op.operationId);
        if (!Object.keys(op.responses).some((status) => Number(status) < 300)) problems.push(`${key}: no success response`);
        for (const parameter of op.parameters ?? []) {
          // A converted Valibot schema that lost its type (an unsupported construct) would read as "anything".
          const schema = parameter.schema;
          if (!schema.type && !schema.enum && !schema.anyOf && !schema.$ref) problems.push(`${key}: parameter ${parameter.name} has no type`);
        }
        const body = op.requestBody?.content['application/json'].schema;
        if (op.requestBody && (body?.type !== 'object' || !body.properties)) problems.push(`${key}: request body is not described as an object with properties`);
      }
    }
    assert.deepEqual(problems, []);
  });
});
