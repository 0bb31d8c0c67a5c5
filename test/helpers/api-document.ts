// Checks API responses against Gatehouse's own OpenAPI document (src/openapi, served at /openapi.json):
// a success body against its operation's schema for that status, a failure against the one error shape.
import assert from 'node:assert/strict';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { API_OPERATIONS, protocolFor } from '../../src/app.ts';
import { ERROR_STATUS, type ErrorCode } from '../../src/http/errors.ts';
import { buildOpenApiDocument } from '../../src/openapi/document.ts';
import { responseSchema } from '../../src/openapi/responses.ts';
import { componentName } from '../../src/openapi/schema.ts';

type Json = Record<string, unknown>;

/**
 * A schema's validator, compiled the first time a response needs it: a test process sees a fraction
 * of the document's ~400 response schemas, and compiling them all cost more CPU than the checks.
 */
type Validator = () => ValidateFunction;

interface DocumentedOperation {
  /** `GET /v1/owners/{owner_id}`, as the area's routes.ts names it. */
  key: string;
  method: string;
  pattern: RegExp;
  params: number;
  /** Documented statuses; a success status maps to its body's validator (null: no JSON body). */
  responses: Map<number, Validator | null>;
  /** A protocol's own failure body (SCIM's), by status, where the operation documents one instead of `Error`. */
  failures: Map<number, Validator>;
}

/**
 * Every object schema in the checker's copy of the document refuses fields it does not describe,
 * so a response cannot carry an undocumented field (the served document stays open, as the reference is).
 */
function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = closeObjects(value);
  if (out.properties !== undefined && out.additionalProperties === undefined) out.unevaluatedProperties = false;
  return out;
}

function load() {
  const doc = buildOpenApiDocument(API_OPERATIONS) as { paths: Record<string, Record<string, Json>>; components: Json };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
  const components = closeObjects(doc.components) as Json;
  ajv.addSchema({ $id: 'gatehouse', components });
  const compile = (schema: unknown) =>
    ajv.compile(JSON.parse(JSON.stringify(closeObjects(schema)).replaceAll('"#/components/', '"gatehouse#/components/')) as Json);
  const lazily = (schema: unknown): Validator => {
    let validate: ValidateFunction | undefined;
    return () => (validate ??= compile(schema));
  };

  const operations: DocumentedOperation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const responses = new Map<number, Validator | null>();
      const failures = new Map<number, Validator>();
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        const content = response.content as Record<string, Json> | undefined;
        const schema = (content?.['application/json'] ?? content?.['application/scim+json'])?.schema;
        responses.set(Number(status), Number(status) < 400 && schema ? lazily(schema) : null);
        if (Number(status) >= 400 && schema) failures.set(Number(status), lazily(schema));
      }
      const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+');
      operations.push({
        key: `${method.toUpperCase()} ${template}`,
        method: method.toUpperCase(),
        pattern: new RegExp(`^${source}$`),
        params: (template.match(/\{/g) ?? []).length,
        responses,
        failures,
      });
    }
  }
  // Literal segments win over parameters: /v1/users/remote_users before /v1/users/{user_id}.
  operations.sort((a, b) => a.params - b.params);
  const errorBody = compile({ $ref: '#/components/schemas/Error' });
  return { operations, errorBody, component: (name: string) => compile({ $ref: `#/components/schemas/${name}` }) };
}

let loaded: ReturnType<typeof load> | undefined;
const documented = () => (loaded ??= load());

const describeErrors = (validate: ValidateFunction) =>
  (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params && 'unevaluatedProperty' in e.params ? ` "${String(e.params.unevaluatedProperty)}"` : ''}`).join('; ');

/** Validates `body` against the document's component `name`; throws naming every violation. */
export function assertMatchesComponent(name: string, body: unknown): void {
  const validate = documented().component(name);
  if (!validate(body)) assert.fail(`value does not match component ${name}: ${describeErrors(validate)}`);
}

/**
 * Checks one response to `method pathname` (the URL's path, /v1 included, no query string): a failure
 * must have the error shape, the status its code maps to, and a status its operation lists; a success
 * must be a status the operation lists, with a body matching that status's schema.
 */
export function assertMatchesDocument(method: string, pathname: string, status: number, body: unknown): void {
  const { operations, errorBody, component } = documented();
  const operation = operations.find((op) => op.method === method && op.pattern.test(pathname));
  // Outside every route, a failure has the shape of the protocol owning the path (SCIM's under /scim/v2).
  const protocolError = protocolFor(pathname).errorSchema;
  const failure = operation?.failures.get(status)?.() ?? (!operation && status >= 400 && protocolError ? component(componentName(responseSchema(protocolError))!) : undefined);
  if (failure) {
    if (!failure(body)) assert.fail(`${operation?.key ?? `${method} ${pathname}`} → ${status}: the failure body does not match the document: ${describeErrors(failure)}`);
    return;
  }
  if (status >= 400) {
    if (!errorBody(body)) assert.fail(`${method} ${pathname} → ${status}: the error body does not match the Error shape: ${describeErrors(errorBody)}`);
    const code = (body as { code: ErrorCode }).code;
    assert.equal(ERROR_STATUS[code], status, `${method} ${pathname}: error code ${code} belongs with status ${ERROR_STATUS[code]}, not ${status}`);
    // A path no route matches (404) or a method the path lacks (405) has no operation to list it.
    if (operation && !operation.responses.has(status)) {
      assert.fail(`${operation.key} answered ${status} (${code}), which its document entry does not list: add '${code}' to its \`errors\` in the area's routes.ts`);
    }
    return;
  }
  assert.ok(operation, `${method} ${pathname} answered ${status} but no operation in the API document matches it: document it in the area's routes.ts`);
  const validator = operation.responses.get(status);
  assert.ok(validator !== undefined, `${operation.key} answered ${status}, which its document entry does not list (it lists ${[...operation.responses.keys()].filter((s) => s < 400).join(', ')})`);
  const validate = validator?.();
  if (validate && !validate(body)) {
    assert.fail(`${operation.key} → ${status}: the body does not match the document: ${describeErrors(validate)}`);
  }
}
