// The vocabulary of Gatehouse's API document: JSON Schema values, named components, and how a
// component is referred to. A component is a plain object registered under a name; wherever it
// appears inside another schema the document builder writes a $ref to it instead of a copy.

/** A JSON Schema (draft 2020-12, as OpenAPI 3.1 uses it). Kept loose: the document tests check it. */
export interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: readonly unknown[];
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  items?: JsonSchema;
  description?: string;
  [keyword: string]: unknown;
}

const names = new WeakMap<object, string>();

/**
 * Names `schema` as the component `name` (#/components/schemas/name) and returns it unchanged.
 * Use the returned value wherever the component belongs: in another schema or in an operation's
 * responses. Two different objects may not share a name (the builder refuses it).
 */
export function component<S extends JsonSchema>(name: string, schema: S): S {
  names.set(schema, name);
  return schema;
}

/** The component name `schema` was registered under, if any. */
export function componentName(schema: object): string | undefined {
  return names.get(schema);
}

/** `schema` or JSON null: OpenAPI 3.1 has no `nullable`, so a named component is wrapped. */
export function orNull(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: 'null' }] };
}

/** The body of the reference's body-less successes (deletes, detaches): an empty JSON object. */
export const EmptyObject = component('EmptyObject', {
  type: 'object',
  description: 'An empty JSON object: the operation succeeded and has nothing to report.',
  maxProperties: 0,
});

/** A field Gatehouse adds to a reference object: marked `x-gatehouse-extension`, with why it is there. */
export function extensionField(schema: JsonSchema, description: string): JsonSchema {
  return { ...schema, description, 'x-gatehouse-extension': true };
}
