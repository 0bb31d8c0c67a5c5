// Response shapes, declared once as Valibot schemas: the mappers take their types from them
// (`v.InferOutput<typeof Owner>`) and the API document their JSON Schema. Nothing validates a response
// at run time; the test client checks every response against the document built from these.
import { toJsonSchema, type ConversionConfig } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { jsonComponent, type JsonSchema } from './schema.ts';

/** A response schema: any Valibot schema without async parts. */
export type ResponseSchema = v.GenericSchema;

/** The named schema each name step ends. */
const byStep = new WeakMap<object, ResponseSchema>();

/** A component's name, held by the empty metadata step `component()` ends its schema's pipe with. */
const names = new WeakMap<object, string>();

/**
 * Names `schema` as the component `name` (#/components/schemas/name): wherever the returned schema
 * appears inside another response schema, the document writes a $ref to it. (The name rides on a step
 * of its own at the end of a pipe, because the converter reports pipe steps, not the pipes that hold them.)
 */
export function component<S extends ResponseSchema>(name: string, schema: S) {
  const marker = v.metadata<v.InferOutput<S>, Record<string, never>>({});
  names.set(marker, name);
  const named = v.pipe(schema, marker);
  byStep.set(marker, named);
  return named;
}

/** The name step of a schema `component()` returned, if it is one. */
function nameStep(schema: ResponseSchema): object | undefined {
  const last = 'pipe' in schema ? (schema.pipe as readonly object[]).at(-1) : undefined;
  return last !== undefined && names.has(last) ? last : undefined;
}

/** The marker a nested component leaves in a conversion, replaced by the component's own JSON object. */
const NESTED = '#gatehouse-nested/';

/** One conversion: the schema at the root is written out; every other named schema becomes a marker. */
function configFor(root: ResponseSchema, nested: ResponseSchema[]): ConversionConfig {
  const rootStep = nameStep(root);
  return {
    target: 'draft-2020-12',
    typeMode: 'output',
    overrideAction({ valibotAction }) {
      if (valibotAction === rootStep || !names.has(valibotAction)) return undefined;
      nested.push(byStep.get(valibotAction)!);
      return { $ref: `${NESTED}${nested.length - 1}` };
    },
    overrideSchema({ valibotSchema, jsonSchema }) {
      if (valibotSchema.type === 'nullable') return nullableOf(jsonSchema as JsonSchema) as never;
      if ('entries' in valibotSchema) {
        // An object that lists no fields says only that it is an object; a field list says which are required.
        const out = jsonSchema as JsonSchema;
        if (out.required?.length === 0) delete out.required;
        if (out.properties && Object.keys(out.properties).length === 0) delete out.properties;
      }
      return undefined;
    },
  };
}

/**
 * A nullable plain value as the reference writes it (`type: [string, null]` beside its format);
 * an enumeration or a component stays `anyOf: [..., {type: null}]`, which null can satisfy.
 */
function nullableOf(json: JsonSchema): JsonSchema | undefined {
  const [inner, ...rest] = (json.anyOf as JsonSchema[] | undefined) ?? [];
  if (!inner || rest.length !== 1 || typeof inner.type !== 'string' || 'enum' in inner || 'const' in inner || '$ref' in inner) return undefined;
  const { anyOf: _anyOf, ...siblings } = json;
  return { ...inner, type: [inner.type, 'null'], ...siblings };
}

const converted = new WeakMap<ResponseSchema, JsonSchema>();

/**
 * The JSON Schema of a response schema, built once per schema: a named one is the same registered
 * component object each time (the document builder writes $refs to it), its nested components likewise.
 * Throws on a schema that JSON Schema cannot say (a transformation, a function).
 */
export function responseSchema(schema: ResponseSchema): JsonSchema {
  const known = converted.get(schema);
  if (known) return known;
  const nested: ResponseSchema[] = [];
  const out = toJsonSchema(schema, configFor(schema, nested)) as JsonSchema;
  delete out.$schema;
  if (out.$defs) throw new Error('a response schema cannot be recursive (v.lazy): the document has no name for it');
  const resolve = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(resolve);
    if (typeof node !== 'object' || node === null) return node;
    const ref = (node as JsonSchema).$ref;
    if (typeof ref === 'string' && ref.startsWith(NESTED)) {
      const target = responseSchema(nested[Number(ref.slice(NESTED.length))]!);
      const { $ref: _ref, ...siblings } = node as JsonSchema;
      // A component with words of its own beside it (a field's description) keeps them around it.
      return Object.keys(siblings).length === 0 ? target : { allOf: [target], ...siblings };
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolve(value)]));
  };
  const json = resolve(out) as JsonSchema;
  const step = nameStep(schema);
  if (step !== undefined) jsonComponent(names.get(step)!, json);
  converted.set(schema, json);
  return json;
}

/** The body of the reference's body-less successes (deletes, detaches): an empty JSON object. */
export const EmptyObject = component('EmptyObject', v.pipe(
  v.object({}),
  v.maxEntries(0),
  v.description('An empty JSON object: the operation succeeded and has nothing to report.'),
));

// The pieces response schemas are made of, named once so every area writes a field the same way.

/** A UUID (format uuid). */
export const uuid = v.pipe(v.string(), v.uuid());
/** An RFC 3339 time (format date-time), as Gatehouse writes every time. */
export const dateTime = v.pipe(v.string(), v.isoTimestamp());
/** A whole number. */
export const integer = v.pipe(v.number(), v.integer());
/** A list of ids. */
export const uuidList = v.array(uuid);
/** The cursors of a paginated list: absent or null when there is no such page. */
export const cursor = v.optional(v.nullable(v.string()));

/** A page of a list as the reference pages most: the items in `results`, the cursors either side. */
export function paginated<S extends ResponseSchema>(name: string, item: S) {
  return component(name, v.object({ next: cursor, previous: cursor, results: v.array(item) }));
}

/** A field Gatehouse adds to a reference object: marked `x-gatehouse-extension`, with why it is there. */
export function extension<S extends ResponseSchema>(schema: S, description: string) {
  return v.pipe(schema, v.metadata({ description, 'x-gatehouse-extension': true }));
}

/** Words for a schema, in the document. */
export function described<S extends ResponseSchema>(schema: S, description: string) {
  return v.pipe(schema, v.description(description));
}
