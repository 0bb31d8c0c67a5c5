// The vocabulary of Gatehouse's API document: JSON Schema values and how a named component is referred
// to. The converters (responses.ts, valibot.ts) register the JSON object of each named schema here;
// wherever it appears inside another schema the document builder writes a $ref to it instead of a copy.

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
 * Names the converted JSON `schema` as the component `name` (#/components/schemas/name) and returns it
 * unchanged. Two different objects may not share a name (the builder refuses it).
 */
export function jsonComponent<S extends JsonSchema>(name: string, schema: S): S {
  names.set(schema, name);
  return schema;
}

/** The component name `schema` was registered under, if any. */
export function componentName(schema: object): string | undefined {
  return names.get(schema);
}
