// SCIM 2.0's handlers (RFC 7644), under /scim/v2: what each call does is service.ts's; the SCIM protocol
// (protocol.ts) authenticates its tokens, parses the bodies the routes declare, and writes its errors.
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { parse } from '../../http/parse.ts';
import type { ApiRouter, Reply } from '../../http/router.ts';
import type { GatehouseRequest } from '../../http/types.ts';
import { groupMembers } from '../access/service.ts';
import { ownBase } from '../web-sessions/cookie.ts';
import { invalidValue } from './errors.ts';
import { filterToSql } from './filter.ts';
import { applyPatch } from './patch.ts';
import { projection } from './projection.ts';
import {
  GROUP_FILTER_ATTRIBUTES, GROUP_URNS, LIST_SCHEMA, MAX_RESULTS, SCIM_BASE, USER_FILTER_ATTRIBUTES, USER_URNS, ENTERPRISE_SCHEMA,
  GROUP_SCHEMA, USER_SCHEMA, resourceTypes, schemas, serviceProviderConfig, toScimGroup, toScimUser, type Json,
} from './resources.ts';
import type { scimRoutes } from './routes.ts';
import { canonicalKeys, GROUP_SHAPE, ScimGroupBody, ScimUserBody, USER_SHAPE, type ListQuery } from './schemas.ts';
import {
  provisionGroup, provisionUser, removeGroup, removeUser, replaceGroup, replaceUser, scimGroup, scimUser,
} from './service.ts';

/** One query value: the last of a repeated key; undefined when absent. Names are matched ignoring case. */
function queryValue(req: GatehouseRequest, name: string): string | undefined {
  for (const [key, value] of Object.entries(req.query ?? {})) {
    if (key.toLowerCase() !== name.toLowerCase()) continue;
    const one = Array.isArray(value) ? value.at(-1) : value;
    return typeof one === 'string' ? one : undefined;
  }
  return undefined;
}

/** A whole number from the query, or `fallback`; RFC 7644 §3.4.2.4 says what out-of-range values mean. */
function queryInteger(req: GatehouseRequest, name: string, fallback: number): number {
  const raw = queryValue(req, name);
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d{1,15}$/.test(raw)) throw invalidValue(name, 'must be a whole number');
  return Number(raw);
}

const list = (raw: string | undefined): string[] | undefined =>
  raw === undefined ? undefined : raw.split(',').map((part) => part.trim()).filter((part) => part !== '').slice(0, 100);

function listQuery(req: GatehouseRequest): ListQuery {
  const filter = queryValue(req, 'filter');
  return {
    ...(filter !== undefined && filter.trim() !== '' && { filter }),
    startIndex: Math.max(1, queryInteger(req, 'startIndex', 1)),
    count: Math.min(MAX_RESULTS, Math.max(0, queryInteger(req, 'count', MAX_RESULTS))),
    attributes: list(queryValue(req, 'attributes')),
    excludedAttributes: list(queryValue(req, 'excludedAttributes')),
  };
}

/** Whether a group's members are to be shown: not when excluded, nor when attributes leave them out. */
const wantsMembers = (query: Pick<ListQuery, 'attributes' | 'excludedAttributes'>): boolean => {
  const named = (names: string[] | undefined) => names?.some((n) => /^(urn:ietf:params:scim:schemas:core:2\.0:group:)?members(\.|$)/i.test(n)) ?? false;
  if (named(query.excludedAttributes)) return false;
  return query.attributes === undefined || named(query.attributes);
};

/**
 * Binds /scim/v2's handlers. Each route's SCIM token is checked by the SCIM protocol in front of it (401,
 * 403, 429), and its failures answer in SCIM's error schema.
 */
export function registerScimRoutes(router: ApiRouter<typeof scimRoutes>, ctx: AppContext): void {
  const base = (req: GatehouseRequest): string => ownBase(ctx, req).replace(/\/+$/, '');
  const listResponse = (resources: Json[], total: number, startIndex: number) => ({
    schemas: [LIST_SCHEMA], totalResults: total, startIndex, itemsPerPage: resources.length, Resources: resources,
  });

  router.on('GET /scim/v2/ServiceProviderConfig', (req) => ({ status: 200, body: serviceProviderConfig(base(req.http)) }));
  router.on('GET /scim/v2/ResourceTypes', (req) => {
    const types = resourceTypes(base(req.http));
    return { status: 200, body: listResponse(types, types.length, 1) };
  });
  router.on('GET /scim/v2/ResourceTypes/{id}', (req) => {
    const found = resourceTypes(base(req.http)).find((t) => String(t.id).toLowerCase() === req.param('id').toLowerCase());
    if (!found) throw new AppError('not_found', `no ResourceType ${req.param('id')}`);
    return { status: 200, body: found };
  });
  router.on('GET /scim/v2/Schemas', (req) => {
    const all = schemas(base(req.http));
    return { status: 200, body: listResponse(all, all.length, 1) };
  });
  router.on('GET /scim/v2/Schemas/{id}', (req) => {
    const found = schemas(base(req.http)).find((s) => String(s.id).toLowerCase() === req.param('id').toLowerCase());
    if (!found) throw new AppError('not_found', `no Schema ${req.param('id')}`);
    return { status: 200, body: found };
  });

  // Users (docs/scim.md, "Users").
  const userOut = (req: GatehouseRequest, query: Pick<ListQuery, 'attributes' | 'excludedAttributes'>) => {
    const project = projection(query, USER_URNS);
    return (row: Parameters<typeof toScimUser>[0]) => project(toScimUser(row, base(req)));
  };
  const created = (req: GatehouseRequest, resource: Json, type: 'Users' | 'Groups'): Reply =>
    ({ status: 201, body: resource, headers: { Location: `${base(req)}${SCIM_BASE}/${type}/${String(resource.id)}` } });

  router.on('GET /scim/v2/Users', (req) => {
    const query = listQuery(req.http);
    const filter = query.filter === undefined ? null : filterToSql(query.filter, USER_FILTER_ATTRIBUTES, USER_URNS);
    const page = ctx.stores.scim.users(filter, query.startIndex - 1, query.count);
    return { status: 200, body: listResponse(page.rows.map(userOut(req.http, query)), page.total, query.startIndex) };
  });
  router.on('GET /scim/v2/Users/{id}', (req) => ({ status: 200, body: userOut(req.http, listQuery(req.http))(scimUser(ctx, req.param('id'))) }));
  router.on('POST /scim/v2/Users', async (req) => {
    const input = await req.body();
    return created(req.http, toScimUser(provisionUser(ctx, req.caller, input), base(req.http)), 'Users');
  });
  router.on('PUT /scim/v2/Users/{id}', async (req) => {
    const input = await req.body();
    return { status: 200, body: toScimUser(replaceUser(ctx, req.caller, req.param('id'), input), base(req.http)) };
  });
  router.on('PATCH /scim/v2/Users/{id}', async (req) => {
    const patch = await req.body();
    const current = toScimUser(scimUser(ctx, req.param('id')), base(req.http));
    const patched = applyPatch(current, patch.Operations, USER_SHAPE, [USER_SCHEMA, ENTERPRISE_SCHEMA]);
    // A changed given or family name with no new display name makes the full name anew from its parts.
    const name = (r: Json) => (r.name ?? {}) as Json;
    if ((name(patched).givenName !== name(current).givenName || name(patched).familyName !== name(current).familyName)
      && patched.displayName === current.displayName && name(patched).formatted === name(current).formatted) {
      delete patched.displayName;
      delete name(patched).formatted;
    }
    const input = parse(ScimUserBody, canonicalKeys(patched, USER_SHAPE));
    return { status: 200, body: toScimUser(replaceUser(ctx, req.caller, req.param('id'), input), base(req.http)) };
  });
  router.on('DELETE /scim/v2/Users/{id}', (req) => {
    removeUser(ctx, req.caller, req.param('id'));
    return { status: 204 };
  });

  // Groups (docs/scim.md, "Groups").
  const groupOut = (req: GatehouseRequest, query: Pick<ListQuery, 'attributes' | 'excludedAttributes'>) => {
    const project = projection(query, GROUP_URNS);
    const members = wantsMembers(query);
    return (row: Parameters<typeof toScimGroup>[0]) => project(toScimGroup(row, members ? groupMembers(ctx, row.id) : null, base(req)));
  };
  router.on('GET /scim/v2/Groups', (req) => {
    const query = listQuery(req.http);
    const filter = query.filter === undefined ? null : filterToSql(query.filter, GROUP_FILTER_ATTRIBUTES, GROUP_URNS);
    const page = ctx.stores.scim.groups(filter, query.startIndex - 1, query.count);
    return { status: 200, body: listResponse(page.rows.map(groupOut(req.http, query)), page.total, query.startIndex) };
  });
  router.on('GET /scim/v2/Groups/{id}', (req) => ({ status: 200, body: groupOut(req.http, listQuery(req.http))(scimGroup(ctx, req.param('id'))) }));
  router.on('POST /scim/v2/Groups', async (req) => {
    const input = await req.body();
    const row = provisionGroup(ctx, req.caller, input);
    return created(req.http, toScimGroup(row, groupMembers(ctx, row.id), base(req.http)), 'Groups');
  });
  router.on('PUT /scim/v2/Groups/{id}', async (req) => {
    const input = await req.body();
    const row = replaceGroup(ctx, req.caller, req.param('id'), input);
    return { status: 200, body: toScimGroup(row, groupMembers(ctx, row.id), base(req.http)) };
  });
  router.on('PATCH /scim/v2/Groups/{id}', async (req) => {
    const patch = await req.body();
    const row = scimGroup(ctx, req.param('id'));
    const current = toScimGroup(row, groupMembers(ctx, row.id), base(req.http));
    const patched = applyPatch(current, patch.Operations, GROUP_SHAPE, [GROUP_SCHEMA]);
    const input = parse(ScimGroupBody, canonicalKeys(patched, GROUP_SHAPE));
    const after = replaceGroup(ctx, req.caller, row.id, input);
    // RFC 7644 §3.5.2: 204 is allowed; Okta and Entra ID accept either. The group is answered in full.
    return { status: 200, body: toScimGroup(after, groupMembers(ctx, after.id), base(req.http)) };
  });
  router.on('DELETE /scim/v2/Groups/{id}', (req) => {
    removeGroup(ctx, req.caller, req.param('id'));
    return { status: 204 };
  });
}
