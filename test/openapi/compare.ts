// Compares one OpenAPI operation with another on the wire facts: parameters, request and response
// fields, their types and enums, success statuses. Each difference is { where, what }.
type Json = Record<string, any>;

export interface Difference {
  /** e.g. `parameter query.page_size`, `body.user_ids`, `status 204`, `response 200.results[].name`. */
  where: string;
  what: string;
}

/** A document's schemas with $refs resolved and OpenAPI 3.0's `nullable` read as 3.1's null type. */
export class SchemaReader {
  constructor(private readonly doc: Json) {}

  /** `schema` with its top-level $ref (and an allOf of one) followed, nullability folded into `types`. */
  resolve(schema: Json | undefined, seen: string[] = []): { schema: Json; nullable: boolean } {
    let current = schema ?? {};
    let nullable = false;
    for (let depth = 0; depth < 20; depth++) {
      if (current.nullable === true) nullable = true;
      if (typeof current.$ref === 'string') {
        const path = current.$ref.replace(/^#\//, '').split('/');
        if (seen.includes(current.$ref)) return { schema: {}, nullable };
        seen = [...seen, current.$ref];
        current = path.reduce((node: Json, part: string) => node?.[part], this.doc) ?? {};
        continue;
      }
      const branches: Json[] | undefined = current.anyOf ?? current.oneOf;
      if (branches) {
        const others = branches.filter((b) => b.type !== 'null');
        if (others.length < branches.length) nullable = true;
        if (others.length === 1) {
          current = others[0]!;
          continue;
        }
      }
      if (Array.isArray(current.allOf) && current.allOf.length === 1) {
        current = current.allOf[0];
        continue;
      }
      break;
    }
    return { schema: current, nullable };
  }

  /** The JSON types a schema admits (null included), or null when it does not say. */
  types(schema: Json | undefined): Set<string> | null {
    const { schema: s, nullable } = this.resolve(schema);
    let types: string[] | null = null;
    if (typeof s.type === 'string') types = [s.type];
    else if (Array.isArray(s.type)) types = [...s.type];
    else if (Array.isArray(s.anyOf ?? s.oneOf)) {
      const all = (s.anyOf ?? s.oneOf).map((b: Json) => this.types(b));
      if (all.some((t: Set<string> | null) => t === null)) return null;
      types = all.flatMap((t: Set<string>) => [...t]);
    } else if (Array.isArray(s.enum)) types = [...new Set(s.enum.filter((v: unknown) => v !== null).map((v: unknown) => typeof v))];
    if (types === null) return null;
    const set = new Set(types);
    if (nullable || (Array.isArray(s.enum) && s.enum.includes(null))) set.add('null');
    return set;
  }

  enumOf(schema: Json | undefined): string[] | null {
    const { schema: s } = this.resolve(schema);
    return Array.isArray(s.enum) ? s.enum.filter((v: unknown) => v !== null).map(String).sort() : null;
  }

  /** Field name → schema of an object schema (through allOf), or null when it is not an object with fields. */
  fields(schema: Json | undefined): Map<string, Json> | null {
    const { schema: s } = this.resolve(schema);
    const out = new Map<string, Json>();
    const add = (node: Json) => {
      const r = this.resolve(node).schema;
      for (const [name, field] of Object.entries((r.properties ?? {}) as Json)) out.set(name, field);
      for (const part of r.allOf ?? []) add(part);
    };
    add(s);
    return out.size > 0 ? out : null;
  }

  items(schema: Json | undefined): Json | undefined {
    const { schema: s } = this.resolve(schema);
    return s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array')) ? s.items : undefined;
  }
}

const show = (set: Set<string> | string[] | null) => (set === null ? '(unsaid)' : [...set].sort().join('|'));

/**
 * Differences between the reference's schema and ours at `where`: types, enums, then fields (both
 * ways) and array items, recursively. A type the reference leaves unsaid is not compared.
 */
export function compareSchemas(ref: SchemaReader, refSchema: Json | undefined, ours: SchemaReader, ourSchema: Json | undefined, where: string, out: Difference[], depth = 0): void {
  if (depth > 12) return;
  const refTypes = ref.types(refSchema);
  const ourTypes = ours.types(ourSchema);
  if (refTypes !== null && ourTypes !== null && show(refTypes) !== show(ourTypes)) {
    out.push({ where, what: `type ${show(refTypes)} in the reference, ${show(ourTypes)} here` });
  }
  const refEnum = ref.enumOf(refSchema);
  const ourEnum = ours.enumOf(ourSchema);
  if (refEnum && ourEnum) {
    const missing = refEnum.filter((v) => !ourEnum.includes(v));
    const extra = ourEnum.filter((v) => !refEnum.includes(v));
    if (missing.length > 0) out.push({ where, what: `enum lacks ${missing.join(', ')}` });
    if (extra.length > 0) out.push({ where, what: `enum adds ${extra.join(', ')}` });
  } else if (refEnum && !ourEnum) {
    out.push({ where, what: 'the reference has an enum here, Gatehouse does not' });
  } else if (!refEnum && ourEnum) {
    out.push({ where, what: 'Gatehouse has an enum here, the reference does not' });
  }
  const refFields = ref.fields(refSchema);
  const ourFields = ours.fields(ourSchema);
  // A free-form object on one side (remote_info, an ignored body) is one difference, not one per field.
  if (refFields && !ourFields && ourTypes?.has('object')) {
    out.push({ where, what: 'the reference lists fields here, Gatehouse takes any object' });
  } else if (ourFields && !refFields && refTypes?.has('object')) {
    out.push({ where, what: 'Gatehouse lists fields here, the reference takes any object' });
  } else if (refFields || ourFields) {
    for (const [name, field] of refFields ?? []) {
      const mine = ourFields?.get(name);
      if (!mine) out.push({ where: `${where}.${name}`, what: 'in the reference, not here' });
      else compareSchemas(ref, field, ours, mine, `${where}.${name}`, out, depth + 1);
    }
    for (const name of ourFields?.keys() ?? []) {
      if (!refFields?.has(name)) out.push({ where: `${where}.${name}`, what: 'here, not in the reference' });
    }
  }
  const refItems = ref.items(refSchema);
  const ourItems = ours.items(ourSchema);
  if (refItems && ourItems) compareSchemas(ref, refItems, ours, ourItems, `${where}[]`, out, depth + 1);
}

const jsonBody = (holder: Json | undefined) => holder?.content?.['application/json']?.schema as Json | undefined;

/** Every difference between the reference's operation and ours. */
export function compareOperations(ref: SchemaReader, refOp: Json, ours: SchemaReader, ourOp: Json): Difference[] {
  const out: Difference[] = [];
  const params = (reader: SchemaReader, op: Json) =>
    new Map<string, Json>((op.parameters ?? []).map((p: Json) => reader.resolve(p).schema).map((p: Json) => [`${p.in}.${p.name}`, p]));
  const refParams = params(ref, refOp);
  const ourParams = params(ours, ourOp);
  for (const [id, p] of refParams) {
    const mine = ourParams.get(id);
    const where = `parameter ${id}`;
    if (!mine) {
      out.push({ where, what: 'in the reference, not here' });
      continue;
    }
    if (Boolean(p.required) !== Boolean(mine.required)) out.push({ where, what: `required ${Boolean(p.required)} in the reference, ${Boolean(mine.required)} here` });
    compareSchemas(ref, p.schema, ours, mine.schema, where, out);
  }
  for (const id of ourParams.keys()) if (!refParams.has(id)) out.push({ where: `parameter ${id}`, what: 'here, not in the reference' });

  const refBody = jsonBody(refOp.requestBody);
  const ourBody = jsonBody(ourOp.requestBody);
  if (refBody && !ourBody) out.push({ where: 'body', what: 'the reference takes a body, Gatehouse does not' });
  else if (!refBody && ourBody) out.push({ where: 'body', what: 'Gatehouse takes a body, the reference does not' });
  else if (refBody && ourBody) compareSchemas(ref, refBody, ours, ourBody, 'body', out);

  const successes = (op: Json) => Object.keys(op.responses ?? {}).filter((s) => /^2\d\d$/.test(s)).sort();
  const refStatuses = successes(refOp);
  const ourStatuses = successes(ourOp);
  for (const status of refStatuses) if (!ourStatuses.includes(status)) out.push({ where: `status ${status}`, what: 'the reference lists it, Gatehouse never answers it' });
  for (const status of ourStatuses) {
    if (!refStatuses.includes(status)) {
      out.push({ where: `status ${status}`, what: 'Gatehouse answers it, the reference does not list it' });
      continue;
    }
    const refResponse = ref.resolve(refOp.responses[status]).schema;
    const ourResponse = ours.resolve(ourOp.responses[status]).schema;
    const refSchema = jsonBody(refResponse);
    // A reference response without a body is compared with ours only when ours has fields.
    if (refSchema) compareSchemas(ref, refSchema, ours, jsonBody(ourResponse), `response ${status}`, out);
    else if (ours.fields(jsonBody(ourResponse))) out.push({ where: `response ${status}`, what: 'the reference has no body here, Gatehouse has fields' });
  }
  return out;
}
