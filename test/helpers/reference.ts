// Checks API responses against the reference OpenAPI document (../shared/reference/opal-openapi.yaml):
// success bodies against the operation's response schema, failures against Gatehouse's error shape.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse as parseYaml } from 'yaml';
import { ERROR_STATUS } from '../../src/http/errors.ts';

const REFERENCE_FILE = fileURLToPath(new URL('../../../shared/reference/opal-openapi.yaml', import.meta.url));

/**
 * Gatehouse's own endpoints, which the reference does not have, mapped to the reference component
 * that describes their success body. Add a line here with every new endpoint of our own.
 */
export const GATEHOUSE_EXTENSIONS: Record<string, Record<number, string | null>> = {
  'POST /users': { 200: 'User' },
  'GET /users/{user_id}': { 200: 'User' },
  'POST /users/remote_users': { 200: 'RemoteUser' },
  'DELETE /users/{user_id}/remote_users/{third_party_provider}': { 200: null },
  'POST /tokens': { 200: 'Token' },
  // owners:
  // apps:
  'POST /apps': { 200: 'App' },
  'PUT /apps/{app_id}': { 200: 'App' },
  'DELETE /apps/{app_id}': { 200: null },
  // resources:
  // groups:
  // tags:
  // bundles:
  // non-human-identities:
  // sessions:
  'POST /sessions': { 200: 'Session' },
  'DELETE /sessions/{connection_id}': { 200: null },
  // access graph (graph helper):
  'PUT /users/{user_id}': { 200: 'User' },
  'DELETE /groups/{group_id}/resources/{resource_id}': { 200: null },
};

/**
 * Plain mistakes in the reference, corrected before checking: each names the component, what is
 * wrong, and the fix. Kept short and explicit so nobody mistakes one for a relaxed check.
 */
const REFERENCE_ERRATA: { component: string; why: string; fix: (schema: Record<string, unknown>) => void }[] = [
  {
    component: 'OnCallSchedule',
    why: 'requires message_channel_id (copied from MessageChannel), a field an on-call schedule does not have',
    fix: (schema) => void (schema.required = ['on_call_schedule_id']),
  },
];

/** The one error shape every failure has (documented in the README). */
const ERROR_SCHEMA = {
  type: 'object',
  required: ['code', 'message', 'details', 'request_id'],
  additionalProperties: false,
  properties: {
    code: { enum: Object.keys(ERROR_STATUS) },
    message: { type: 'string', minLength: 1 },
    request_id: { type: 'string', minLength: 1 },
    details: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        additionalProperties: false,
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

type Json = Record<string, unknown>;

/** OpenAPI 3.0's `nullable` (used throughout the reference) → JSON Schema's null type. */
function normalise(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normalise);
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'examples' || key === 'discriminator') continue;
    out[key] = normalise(value);
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    if (typeof out.$ref === 'string') return { anyOf: [{ $ref: out.$ref }, { type: 'null' }] };
  }
  return out;
}

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  params: number;
  responses: Record<number, ValidateFunction | null>;
}

function loadReference() {
  const doc = parseYaml(readFileSync(REFERENCE_FILE, 'utf8')) as { paths: Record<string, Record<string, Json>>; components: { schemas: Json } };
  for (const erratum of REFERENCE_ERRATA) erratum.fix(doc.components.schemas[erratum.component] as Record<string, unknown>);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addFormat('string', true);
  ajv.addFormat('int', true);
  ajv.addSchema({ $id: 'opal', components: { schemas: normalise(doc.components.schemas) } });
  const compile = (schema: unknown) =>
    ajv.compile(JSON.parse(JSON.stringify(normalise(schema)).replaceAll('"#/components/', '"opal#/components/')) as Json);
  const component = (name: string) => compile({ $ref: `#/components/schemas/${name}` });

  const operations: Operation[] = [];
  const add = (method: string, template: string, responses: Record<number, ValidateFunction | null>) => {
    const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
    operations.push({ method, template, pattern: new RegExp(`^${source}$`), params: (template.match(/\{/g) ?? []).length, responses });
  };
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const responses: Record<number, ValidateFunction | null> = {};
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
        const schema = (response.content as Json | undefined)?.['application/json'] as Json | undefined;
        responses[Number(status)] = schema?.schema ? compile(schema.schema) : null;
      }
      add(method.toUpperCase(), template, responses);
    }
  }
  for (const [key, statuses] of Object.entries(GATEHOUSE_EXTENSIONS)) {
    const [method, template] = key.split(' ') as [string, string];
    const responses: Record<number, ValidateFunction | null> = {};
    for (const [status, name] of Object.entries(statuses)) responses[Number(status)] = name ? component(name) : null;
    add(method, template, responses);
  }
  // Literal segments win over parameters: /users/remote_users before /users/{user_id}.
  operations.sort((a, b) => a.params - b.params);
  return { operations, errorValidator: ajv.compile(ERROR_SCHEMA), component };
}

let reference: ReturnType<typeof loadReference> | undefined;
const loaded = () => (reference ??= loadReference());

/** Validates `body` against the reference component `name`; throws with every violation. */
export function assertMatchesComponent(name: string, body: unknown): void {
  const validate = loaded().component(name);
  if (!validate(body)) assert.fail(`response does not match ${name}: ${JSON.stringify(validate.errors, null, 1)}`);
}

/**
 * Checks one response: a failure must have the error shape and the status its code maps to; a success
 * must match the schema the reference (or GATEHOUSE_EXTENSIONS) gives for that operation and status.
 * `path` is the path below /v1, without the query string.
 */
export function assertMatchesReference(method: string, path: string, status: number, body: unknown): void {
  const { operations, errorValidator } = loaded();
  if (status >= 400) {
    if (!errorValidator(body)) assert.fail(`${method} ${path} → ${status}: error body has the wrong shape: ${JSON.stringify(errorValidator.errors)}`);
    assert.equal(ERROR_STATUS[(body as { code: keyof typeof ERROR_STATUS }).code], status, `${method} ${path}: error code does not match status ${status}`);
    return;
  }
  const operation = operations.find((op) => op.method === method && op.pattern.test(path));
  assert.ok(operation, `${method} ${path} is neither in the reference nor in GATEHOUSE_EXTENSIONS`);
  assert.ok(status in operation.responses, `${method} ${operation.template} answered ${status}, which the reference does not list (${Object.keys(operation.responses).join(', ')})`);
  const validate = operation.responses[status];
  if (!validate) return;
  if (!validate(body)) {
    assert.fail(`${method} ${path} → ${status} does not match the reference (${operation.template}): ${JSON.stringify(validate.errors, null, 1)}`);
  }
}
