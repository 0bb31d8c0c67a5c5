// `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5, §3.9): which attributes an answer carries.
// `id`, `schemas` and `meta` are always returned; names are matched ignoring case, with or without the
// schema URN, one sub-attribute deep (`name.givenName`, `urn:…:enterprise:2.0:User:department`).
import type { Json } from './resources.ts';

const ALWAYS = new Set(['id', 'schemas', 'meta']);

/** A path split into [object key, sub-key?], lower case; an extension's attributes live under its URN. */
function split(path: string, urns: readonly string[]): [string, string | undefined] {
  const lower = path.trim().toLowerCase();
  for (const [i, urn] of urns.entries()) {
    if (lower === urn) return [urn, undefined];
    if (lower.startsWith(urn + ':')) {
      const rest = lower.slice(urn.length + 1);
      // The first URN is the extension's (its attributes are under its key); the last is the core schema's.
      if (i < urns.length - 1) return [urn, rest.split('.')[0]];
      const [head, sub] = rest.split('.', 2);
      return [head!, sub];
    }
  }
  const [head, sub] = lower.split('.', 2);
  return [head!, sub];
}

/** The function that cuts a resource down to what the query asks for (the identity when it asks nothing). */
export function projection(query: { attributes?: string[] | undefined; excludedAttributes?: string[] | undefined }, urns: readonly string[]): (resource: Json) => Json {
  const { attributes, excludedAttributes } = query;
  if (!attributes?.length && !excludedAttributes?.length) return (resource) => resource;
  const wanted = attributes?.length ? attributes.map((a) => split(a, urns)) : null;
  const excluded = (excludedAttributes ?? []).map((a) => split(a, urns));
  return (resource) => {
    const out: Json = {};
    for (const [key, value] of Object.entries(resource)) {
      const k = key.toLowerCase();
      if (ALWAYS.has(k)) {
        out[key] = value;
        continue;
      }
      const asked = wanted === null ? [[k, undefined] as [string, string | undefined]] : wanted.filter(([head]) => head === k);
      if (asked.length === 0) continue;
      const whole = asked.some(([, sub]) => sub === undefined);
      let kept: unknown = whole ? value : pick(value, new Set(asked.map(([, sub]) => sub!)));
      const drop = excluded.filter(([head]) => head === k);
      if (drop.some(([, sub]) => sub === undefined)) continue;
      if (drop.length > 0) kept = omit(kept, new Set(drop.map(([, sub]) => sub!)));
      out[key] = kept;
    }
    return out;
  };
}

/** Sub-attributes of an object, or of each object of a list, by lower-case name. */
function pick(value: unknown, names: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => pick(item, names));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => names.has(key.toLowerCase())));
}

function omit(value: unknown, names: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => omit(item, names));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !names.has(key.toLowerCase())));
}
