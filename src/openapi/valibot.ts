// Request schemas for the API document, derived from the Valibot schemas the handlers validate with,
// so what the document says a client may send is what the code accepts.
import { toJsonSchema, type ConversionConfig } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { jsonComponent, type JsonSchema } from './schema.ts';

/**
 * What a `v.metadata({ openapi })` step in a pipe means: from that step on, the document shows this
 * schema instead of what the earlier steps produced. Query strings carry every value as text, so a
 * query number or boolean is a string to Valibot but an integer or boolean on the wire.
 */
export interface WireMetadata {
  openapi: JsonSchema | { arrayOf: v.GenericSchema; commaSeparated: boolean };
}

/** Marks an array query parameter that also accepts comma-separated values (OpenAPI `explode: false`). */
export const COMMA_SEPARATED = 'x-gatehouse-comma-separated';

const config: ConversionConfig = {
  target: 'draft-2020-12',
  // Stop each pipe before its first transformation: the document describes what a client sends.
  typeMode: 'input',
  // Refinements that JSON Schema cannot say (trim, cross-field checks) stay in the code; the rest
  // of the schema is still described. The document tests check every request schema converts.
  errorMode: 'ignore',
  overrideAction({ valibotAction }) {
    if (valibotAction.type !== 'metadata') return undefined;
    const wire = (valibotAction as unknown as { metadata: Partial<WireMetadata> }).metadata.openapi;
    if (!wire) return undefined;
    if ('arrayOf' in wire) {
      const list = { type: 'array', items: convert(wire.arrayOf as v.GenericSchema) } as Record<string, unknown>;
      if (wire.commaSeparated) list[COMMA_SEPARATED] = true;
      return list as never;
    }
    return wire as never;
  },
};

/** Recursive (`v.lazy`) schemas, by title: one component each, shared by every body that uses it. */
const recursive = new Map<string, JsonSchema>();

function convert(schema: v.GenericSchema): JsonSchema {
  const out = toJsonSchema(schema, config) as JsonSchema;
  delete out.$schema;
  const defs = out.$defs as Record<string, JsonSchema> | undefined;
  if (!defs) return out;
  // The converter writes a recursive schema as `#/$defs/<n>`, which inside the API document would
  // point at the document's root. Each one becomes a named component (its `v.title`) instead.
  delete out.$defs;
  const named = new Map<string, JsonSchema>();
  const fresh: JsonSchema[] = [];
  for (const [id, def] of Object.entries(defs)) {
    if (typeof def.title !== 'string') throw new Error('a recursive (v.lazy) schema needs a v.title: it becomes a named component');
    const { title, ...rest } = def;
    if (!recursive.has(title)) {
      recursive.set(title, jsonComponent(title, rest));
      fresh.push(rest);
    }
    named.set(`#/$defs/${id}`, recursive.get(title)!);
  }
  const resolve = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(resolve);
    if (typeof node !== 'object' || node === null) return node;
    const ref = (node as JsonSchema).$ref;
    if (typeof ref === 'string' && named.has(ref)) return named.get(ref);
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolve(value)]));
  };
  for (const def of fresh) for (const [key, value] of Object.entries(def)) def[key] = resolve(value);
  return resolve(out) as JsonSchema;
}

/** The JSON Schema of a request body schema. */
export function bodySchema(schema: v.GenericSchema): JsonSchema {
  return convert(schema);
}

/** A query parameter as the document lists it. */
export interface QueryParameter {
  name: string;
  in: 'query';
  required: boolean;
  schema: JsonSchema;
  style?: 'form';
  explode?: boolean;
}

/** One parameter per field of a query schema (a `v.object`, possibly inside a pipe). */
export function queryParameters(schema: v.GenericSchema): QueryParameter[] {
  const object = convert(schema);
  if (object.type !== 'object' || !object.properties) throw new Error('a query schema must be a Valibot object');
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties).map(([name, property]) => {
    const { [COMMA_SEPARATED]: commaSeparated, ...rest } = property;
    // Valibot holds a query default as the text the query string would carry; the wire type is the metadata's.
    if (typeof rest.default === 'string' && rest.type === 'integer') rest.default = Number(rest.default);
    if (typeof rest.default === 'string' && rest.type === 'boolean') rest.default = rest.default === 'true';
    const parameter: QueryParameter = { name, in: 'query', required: required.has(name), schema: rest };
    if (commaSeparated) Object.assign(parameter, { style: 'form', explode: false });
    return parameter;
  });
}
