// SCIM filters (RFC 7644 §3.4.2.2) as SQL: scim2-parse-filter parses the text; this walks its tree into
// a WHERE clause over a table of attributes. Column expressions come from that table, never from input;
// every value is a bound parameter.
import { parse, type Filter } from 'scim2-parse-filter';
import { invalidFilter } from './errors.ts';

/** An attribute a filter may name: the SQL expression it reads, and how it compares. */
export interface FilterAttribute {
  /** A column or expression over the list query's aliases (never built from input). */
  sql: string;
  type: 'string' | 'boolean' | 'dateTime';
  /** RFC 7643 caseExact: ids and externalId compare exactly, the rest ignoring case. */
  caseExact?: boolean;
}

/** Attributes by lower-cased path (`username`, `name.givenname`, `emails.value`); schema URNs are taken off first. */
export type FilterAttributes = Record<string, FilterAttribute>;

export interface SqlFilter {
  where: string;
  params: (string | number | null)[];
}

/** Longer filters are refused: no IdP sends one near this, and the text bounds the tree's size. */
export const MAX_FILTER_LENGTH = 2_000;
/** How deep and/or/not/[] may nest. */
export const MAX_FILTER_DEPTH = 16;
/**
 * Most comparisons (eq, co, pr, …) one filter may hold: identity providers send one or two
 * (`userName eq "…"`, `externalId eq "…" and active eq true`); each `co` is a scan of every row.
 */
export const MAX_FILTER_TERMS = 20;

/** How many comparisons `node` holds, stopping past `limit` (the tree's size is bounded by the text's). */
function countTerms(node: Filter, limit: number): number {
  const stack: Filter[] = [node];
  let terms = 0;
  while (stack.length > 0 && terms <= limit) {
    const next = stack.pop()!;
    if (next.op === 'and' || next.op === 'or') stack.push(...(next as Extract<Filter, { filters: Filter[] }>).filters);
    else if (next.op === 'not') stack.push((next as Extract<Filter, { op: 'not' }>).filter);
    else if (next.op === '[]') stack.push((next as Extract<Filter, { op: '[]' }>).valFilter);
    else terms += 1;
  }
  return terms;
}

/**
 * The WHERE clause for `text` over `attributes`; schema URN prefixes in `urns` are ignored in paths.
 * Throws invalidFilter (400) for a filter that does not parse, is too long or deep, has too many comparisons, names an
 * attribute not in the table, or compares a value the attribute cannot hold.
 */
export function filterToSql(text: string, attributes: FilterAttributes, urns: readonly string[]): SqlFilter {
  if (text.length > MAX_FILTER_LENGTH) throw invalidFilter(`must be at most ${MAX_FILTER_LENGTH} characters`);
  let tree: Filter;
  try {
    tree = parse(text);
  } catch {
    throw invalidFilter(`"${text.slice(0, 200)}" is not a SCIM filter (RFC 7644 §3.4.2.2), e.g. userName eq "ada@example.com"`);
  }
  if (countTerms(tree, MAX_FILTER_TERMS) > MAX_FILTER_TERMS) throw invalidFilter(`has more than ${MAX_FILTER_TERMS} comparisons; send a narrower filter`);
  const params: SqlFilter['params'] = [];

  const attribute = (path: string, prefix: string): FilterAttribute => {
    let name = path.toLowerCase();
    for (const urn of urns) if (name.startsWith(urn + ':')) name = name.slice(urn.length + 1);
    const found = attributes[prefix + name] ?? attributes[prefix + name + '.value'];
    if (!found) throw invalidFilter(`cannot filter on ${prefix}${path}; filterable: ${Object.keys(attributes).join(', ')}`);
    return found;
  };

  const compare = (node: Extract<Filter, { compValue: unknown }>, prefix: string): string => {
    const attr = attribute(node.attrPath, prefix);
    const value = node.compValue;
    if (value === null) {
      if (node.op === 'eq') return `(${attr.sql} IS NULL)`;
      if (node.op === 'ne') return `(${attr.sql} IS NOT NULL)`;
      throw invalidFilter(`${node.op} cannot compare with null`);
    }
    if (attr.type === 'boolean') {
      const wanted = typeof value === 'boolean' ? value : /^(true|false)$/i.test(String(value)) ? /^true$/i.test(String(value)) : undefined;
      if (wanted === undefined || (node.op !== 'eq' && node.op !== 'ne')) throw invalidFilter(`${node.attrPath} is true or false, compared with eq or ne`);
      params.push((node.op === 'eq') === wanted ? 1 : 0);
      return `((${attr.sql}) = ?)`;
    }
    let operand = String(value);
    if (attr.type === 'dateTime') {
      const ms = Date.parse(operand);
      if (!Number.isFinite(ms)) throw invalidFilter(`${node.attrPath} compares with a date and time, e.g. "2026-01-01T00:00:00Z"`);
      operand = new Date(ms).toISOString();
    }
    const exact = attr.caseExact || attr.type === 'dateTime';
    const col = exact ? attr.sql : `lower(${attr.sql})`;
    const val = exact ? '?' : 'lower(?)';
    switch (node.op) {
      case 'eq': params.push(operand); return `(${col} = ${val})`;
      case 'ne': params.push(operand); return `(${attr.sql} IS NULL OR ${col} <> ${val})`;
      case 'co': params.push(operand); return `(instr(${col}, ${val}) > 0)`;
      case 'sw': params.push(operand, operand); return `(substr(${col}, 1, length(?)) = ${val})`;
      case 'ew': params.push(operand, operand); return `(substr(${col}, -length(?)) = ${val})`;
      case 'gt': params.push(operand); return `(${col} > ${val})`;
      case 'ge': params.push(operand); return `(${col} >= ${val})`;
      case 'lt': params.push(operand); return `(${col} < ${val})`;
      case 'le': params.push(operand); return `(${col} <= ${val})`;
    }
  };

  const walk = (node: Filter, prefix: string, depth: number): string => {
    if (depth > MAX_FILTER_DEPTH) throw invalidFilter(`nests more than ${MAX_FILTER_DEPTH} deep`);
    switch (node.op) {
      case 'and':
      case 'or': {
        const { filters } = node as Extract<Filter, { filters: Filter[] }>;
        return `(${filters.map((f) => walk(f, prefix, depth + 1)).join(node.op === 'and' ? ' AND ' : ' OR ')})`;
      }
      case 'not':
        return `(NOT ${walk((node as Extract<Filter, { op: 'not' }>).filter, prefix, depth + 1)})`;
      case '[]': {
        const path = node as Extract<Filter, { op: '[]' }>;
        if (prefix !== '') throw invalidFilter('a [filter] inside a [filter] is not allowed');
        return walk(path.valFilter, path.attrPath.toLowerCase().replace(/^.*:/, '') + '.', depth + 1);
      }
      case 'pr': {
        const attr = attribute((node as Extract<Filter, { op: 'pr' }>).attrPath, prefix);
        return attr.type === 'string' ? `(${attr.sql} IS NOT NULL AND ${attr.sql} <> '')` : `(${attr.sql} IS NOT NULL)`;
      }
      default:
        return compare(node as Extract<Filter, { compValue: unknown }>, prefix);
    }
  };
  return { where: walk(tree, '', 0), params };
}

/** Most comparisons a filter may hold and still be answered where the request arrives (filterIsLight). */
export const LIGHT_FILTER_TERMS = 3;

/**
 * Whether `text` is a lookup an identity provider makes before each write (`userName eq "…"`,
 * `externalId eq "…" and active eq true`): only eq and pr, joined by and/or, at most LIGHT_FILTER_TERMS.
 * Such a list is answered on the event loop — a provider sends many at once, and a read worker takes at
 * most a few per caller — while any other filter (co, sw, ne, not, many terms) goes to a read worker.
 * Call after filterToSql has accepted the text.
 */
export function filterIsLight(text: string): boolean {
  let tree: Filter;
  try {
    tree = parse(text);
  } catch {
    return false;
  }
  const stack: Filter[] = [tree];
  let terms = 0;
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.op === 'and' || node.op === 'or') stack.push(...(node as Extract<Filter, { filters: Filter[] }>).filters);
    else if (node.op === 'eq' || node.op === 'pr') terms += 1;
    else return false;
    if (terms > LIGHT_FILTER_TERMS) return false;
  }
  return true;
}
