// "One-kind" objects, shared by resources and groups: remote_info and the deprecated metadata text
// each hold exactly one property naming a kind, whose value has that kind's fields and nothing else.
import { invalidField } from '../../http/errors.ts';

type FieldType = 'string' | 'boolean' | readonly string[];
interface KindField {
  name: string;
  required: boolean;
  type: FieldType;
}
export interface Kind {
  fields: KindField[];
  /** The item types (resource_type / group_type) this kind may describe. */
  types: string[];
}
export type KindTable = Record<string, Kind>;

/**
 * Builds a kind table from a compact spec: `'instance_id region ?account_id engine:MYSQL|POSTGRESQL flag:boolean'`
 * (`?` marks an optional field) and, when it is not the kind's name in upper case, the item types it fits.
 */
export function kindTable(spec: Record<string, string | [fields: string, types: string]>): KindTable {
  const table: KindTable = {};
  for (const [kind, entry] of Object.entries(spec)) {
    const [fields, types] = typeof entry === 'string' ? [entry, kind.toUpperCase()] : entry;
    table[kind] = {
      types: types.split(' '),
      fields: fields.split(' ').map((word) => {
        const [raw, type] = word.split(':') as [string, string | undefined];
        const required = !raw.startsWith('?');
        return { name: required ? raw : raw.slice(1), required, type: type === undefined ? 'string' : type === 'boolean' ? 'boolean' : type.split('|') };
      }),
    };
  }
  return table;
}

const describe = (type: FieldType) => (type === 'string' ? 'a string' : type === 'boolean' ? 'true or false' : `one of ${type.join(', ')}`);

/**
 * Checks `value` is an object with exactly one property, naming a kind of `table` that fits `itemType`,
 * whose value has that kind's fields (required ones present, of their type) and nothing else.
 * Returns the kind, or a problem: `where` is the dotted place inside `value` ('' for the whole).
 */
export function checkOneKind(value: unknown, table: KindTable, itemType: string): { kind: string } | { where: string; message: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { where: '', message: 'must be a JSON object' };
  const keys = Object.keys(value);
  if (keys.length !== 1) return { where: '', message: `must have exactly one property naming its kind, not ${keys.length}` };
  const kind = keys[0]!;
  const spec = table[kind];
  if (!spec) return { where: kind, message: `is not a known kind (known: ${Object.keys(table).join(', ')})` };
  if (!spec.types.includes(itemType)) return { where: kind, message: `describes ${spec.types.join(' or ')}, not ${itemType}` };
  const body = (value as Record<string, unknown>)[kind];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { where: kind, message: 'must be a JSON object' };
  for (const key of Object.keys(body)) {
    if (!spec.fields.some((field) => field.name === key)) return { where: `${kind}.${key}`, message: 'is not a field of this kind' };
  }
  for (const field of spec.fields) {
    const given = (body as Record<string, unknown>)[field.name];
    if (given === undefined) {
      if (field.required) return { where: `${kind}.${field.name}`, message: 'is required' };
      continue;
    }
    const fits = field.type === 'string' ? typeof given === 'string' : field.type === 'boolean' ? typeof given === 'boolean' : field.type.includes(given as string);
    if (!fits) return { where: `${kind}.${field.name}`, message: `must be ${describe(field.type)}` };
  }
  return { kind };
}

/**
 * The remote id a (valid) remote_info names: the fields `remoteIdFields` lists for its kind, else its
 * required fields, joined with '.' (e.g. snowflake_table → "db.schema.table"). Null when a field is absent.
 */
export function remoteIdOf(remoteInfo: Record<string, unknown>, table: KindTable, remoteIdFields: Record<string, string[]>): string | null {
  const [kind] = Object.keys(remoteInfo);
  const spec = kind === undefined ? undefined : table[kind];
  if (!spec) return null;
  const body = remoteInfo[kind!] as Record<string, unknown>;
  const fields = remoteIdFields[kind!] ?? spec.fields.filter((field) => field.required).map((field) => field.name);
  const parts = fields.map((name) => body[name]);
  return parts.every((part) => typeof part === 'string' && part !== '') ? parts.join('.') : null;
}

/** Validates remote_info (an object); throws validation_failed naming `${path}.<kind>.<field>`. */
export function checkRemoteInfo(value: unknown, table: KindTable, itemType: string, path: string): void {
  const result = checkOneKind(value, table, itemType);
  if ('where' in result) throw invalidField(result.where ? `${path}.${result.where}` : path, result.message);
}

/** Validates the deprecated metadata (JSON text of a one-kind object); throws validation_failed naming `path`, saying what is wrong. */
export function checkMetadata(text: string, table: KindTable, itemType: string, path: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidField(path, 'must be JSON text of an object');
  }
  const result = checkOneKind(parsed, table, itemType);
  if ('where' in result) throw invalidField(path, result.where ? `${result.where}: ${result.message}` : result.message);
}
