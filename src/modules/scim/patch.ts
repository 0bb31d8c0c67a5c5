// PATCH (RFC 7644 §3.5.2) applied to a resource as SCIM shows it: scim-patch does the operations; this
// file spells paths and values the way the schema does first, so Okta's and Entra ID's dialects (op in
// any case, attribute names in any case, `value: {active: false}` without a path) land on the same attributes.
import { NoTarget, ScimError as PatchError, scimPatch, type ScimPatchOperation } from 'scim-patch';
import { invalidPath, invalidSyntax, mutability, noTarget } from './errors.ts';
import { canonicalKeys, type PatchInput, type USER_SHAPE } from './schemas.ts';
import type { Json } from './resources.ts';

type Shape = typeof USER_SHAPE;

/** `name.GivenName` → `name.givenName`, `URN:…:User:Department` → `urn:…:User:department`; filters in brackets are kept as sent. */
function canonicalPath(path: string, shape: Shape, urns: readonly string[]): string {
  let prefix = '';
  let rest = path.trim();
  for (const urn of urns) {
    if (rest.toLowerCase() === urn.toLowerCase()) return urn;
    if (rest.toLowerCase().startsWith(urn.toLowerCase() + ':')) {
      const extension = shape.nested?.[urn];
      // The core schema's URN is just a long spelling of the attribute; an extension's names its object.
      if (!extension) {
        rest = rest.slice(urn.length + 1);
        break;
      }
      prefix = urn + ':';
      rest = rest.slice(urn.length + 1);
      shape = extension;
      break;
    }
  }
  const bracket = rest.indexOf('[');
  const head = bracket < 0 ? rest : rest.slice(0, bracket);
  const tail = bracket < 0 ? '' : rest.slice(bracket);
  const [attribute = '', sub] = head.split('.', 2);
  const name = shape.names[attribute.toLowerCase()] ?? attribute;
  const subShape = shape.nested?.[name];
  const subName = sub === undefined ? undefined : (subShape?.names[sub.toLowerCase()] ?? sub);
  // After a filter: `emails[type eq "work"].value`.
  const afterFilter = tail.replace(/\]\.(\w+)$/, (_m, s: string) => `].${subShape?.names[s.toLowerCase()] ?? s}`);
  return prefix + name + (subName === undefined ? '' : `.${subName}`) + afterFilter;
}

/**
 * `resource` with `operations` applied, as a new object. Throws a SCIM 400: invalidPath for a path
 * scim-patch cannot follow, noTarget for a filter that matches nothing where one is needed,
 * invalidSyntax for an operation missing what it needs, mutability when `id` would change.
 */
export function applyPatch(resource: Json, operations: PatchInput['Operations'], shape: Shape, urns: readonly string[]): Json {
  const extensions = urns.filter((urn) => shape.nested?.[urn] !== undefined);
  /**
   * An operation on an extension's whole object (its URN as the path, or its URN as a key of a no-path
   * value) as one operation per sub-attribute: scim-patch splits a path at its last colon, so a URN path
   * would name an attribute "User" and change nothing (issue 37.5).
   */
  const perAttribute = (op: PatchInput['Operations'][number]): PatchInput['Operations'] => {
    if (op.path !== undefined) {
      const urn = extensions.find((u) => u.toLowerCase() === op.path!.trim().toLowerCase());
      if (urn === undefined) return [op];
      if (op.op === 'remove') return Object.keys((resource[urn] ?? {}) as Json).map((key) => ({ op: 'remove', path: `${urn}:${key}` }));
      if (op.value === null || typeof op.value !== 'object' || Array.isArray(op.value)) throw invalidSyntax(`Operations: ${op.op} ${urn} takes an object of its attributes`);
      return Object.entries(canonicalKeys(op.value, shape.nested![urn]!) as Json).map(([key, value]) => ({ op: op.op, path: `${urn}:${key}`, value }));
    }
    if (op.value === null || typeof op.value !== 'object' || Array.isArray(op.value)) return [op];
    const value = canonicalKeys(op.value, shape) as Json;
    const rest: Json = {};
    const split: PatchInput['Operations'] = [];
    for (const [key, inner] of Object.entries(value)) {
      if (!extensions.includes(key)) rest[key] = inner;
      else split.push(...perAttribute({ op: op.op, path: key, value: inner }));
    }
    return Object.keys(rest).length > 0 ? [{ op: op.op, value: rest }, ...split] : split;
  };
  const ops = operations.flatMap(perAttribute).flatMap((op): ScimPatchOperation[] => {
    const path = op.path === undefined ? undefined : canonicalPath(op.path, shape, urns);
    // An attribute Gatehouse takes and keeps nothing of (a phone number, an address): replacing or removing
    // one that is not there is no error here, as adding one is none — there is nothing to change.
    if (path !== undefined && shape.dropped?.[path.split(/[.[]/, 1)[0]!.toLowerCase()] !== undefined) return [];
    const value = path === undefined ? canonicalKeys(op.value, shape) : op.value;
    if (op.op === 'remove') {
      if (path === undefined) throw invalidSyntax('Operations: a remove needs a path');
      // Entra ID removes members by listing them: `{op: Remove, path: members, value: [{value: id}]}`.
      // As a value filter per item it matches the member whatever else the resource shows of it.
      if (Array.isArray(value) && !path.includes('[')) {
        return value.map((item) => {
          const id = (item as { value?: unknown } | null)?.value;
          if (typeof id !== 'string') throw invalidSyntax(`Operations: a remove from ${path} lists each item as {"value": …}`);
          return { op: 'remove', path: `${path}[value eq ${JSON.stringify(id)}]` };
        });
      }
      return [{ op: 'remove', path, ...(value !== undefined && { value }) }];
    }
    if (value === undefined) throw invalidSyntax(`Operations: ${op.op} needs a value`);
    // Entra ID sets the enterprise manager by its id alone; the schema's manager is {value}.
    if (path?.endsWith(':manager') && typeof value === 'string') return [{ op: 'replace', path, value: { value } }];
    return [{ op: op.op, ...(path !== undefined && { path }), value }];
  });
  let patched: Json;
  try {
    patched = scimPatch(structuredClone(resource) as Json & { meta: never; schemas: string[] }, ops, { mutateDocument: true }) as Json;
  } catch (err) {
    if (err instanceof NoTarget) throw noTarget('Operations: the path\'s filter matches no value');
    if (!(err instanceof PatchError)) throw err;
    throw invalidPath('Operations: a path cannot be followed on this resource (RFC 7644 §3.5.2), e.g. "name.givenName" or "members[value eq \\"…\\"]"');
  }
  if (patched.id !== resource.id) throw mutability('id', 'is assigned by Gatehouse and cannot change');
  return patched;
}
