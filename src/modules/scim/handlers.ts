// SCIM 2.0's handlers (RFC 7644), under /scim/v2: what each call does is service.ts's; the SCIM protocol
// (protocol.ts) authenticates its tokens, parses the bodies the routes declare, and writes its errors.
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { parse } from '../../http/parse.ts';
import type { ApiRouter } from '../../http/router.ts';
import type { GatehouseRequest } from '../../http/types.ts';
import { groupMembers } from '../access/service.ts';
import { ownBase } from '../web-sessions/cookie.ts';
import { invalidValue } from './errors.ts';
import { checkListFilter, listResponse, scimListTask, wantsMembers } from './list.ts';
import { filterIsLight } from './filter.ts';
import { checkPatchBounds } from './group-patch.ts';
import { applyPatch } from './patch.ts';
import { projection } from './projection.ts';
import { GROUP_URNS, MAX_RESULTS, SCIM_BASE, USER_URNS, ENTERPRISE_SCHEMA, USER_SCHEMA, resourceTypes, schemas, serviceProviderConfig, type Json } from './resources.ts';
import { toScimGroup, toScimUser } from './mappers.ts';
import type { scimRoutes } from './routes.ts';
import { canonicalKeys, ScimUserBody, USER_SHAPE, type ListQuery } from './schemas.ts';
import {
  patchGroup, provisionGroup, provisionUser, removeGroup, removeUser, replaceGroup, replaceUser, scimGroup, scimUser,
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

/** A list's query from its parts; RFC 7644 §3.4.2.4 says what out-of-range paging values mean. */
function toListQuery(parts: { filter?: string | undefined; startIndex?: number | undefined; count?: number | undefined; attributes?: string[] | undefined; excludedAttributes?: string[] | undefined }): ListQuery {
  return {
    ...(parts.filter !== undefined && parts.filter.trim() !== '' && { filter: parts.filter }),
    startIndex: Math.max(1, parts.startIndex ?? 1),
    count: Math.min(MAX_RESULTS, Math.max(0, parts.count ?? MAX_RESULTS)),
    attributes: parts.attributes,
    excludedAttributes: parts.excludedAttributes,
  };
}

function listQuery(req: GatehouseRequest): ListQuery {
  return toListQuery({
    filter: queryValue(req, 'filter'),
    startIndex: queryInteger(req, 'startIndex', 1),
    count: queryInteger(req, 'count', MAX_RESULTS),
    attributes: list(queryValue(req, 'attributes')),
    excludedAttributes: list(queryValue(req, 'excludedAttributes')),
  });
}

/**
 * A SCIM answer's body. resources.ts builds SCIM's resources as JSON (an attribute per name, the
 * extension's under its URN, projected to the attributes asked for at run time), which TypeScript cannot
 * follow into the schemas the routes declare: here alone the type is asserted, and the tests' check of
 * every answer against the API document holds the shape.
 */
const scimJson = (body: unknown): never => body as never;

/**
 * Binds /scim/v2's handlers. Each route's SCIM token is checked by the SCIM protocol in front of it (401,
 * 403, 429), and its failures answer in SCIM's error schema.
 */
export function registerScimRoutes(router: ApiRouter<typeof scimRoutes>, ctx: AppContext): void {
  const base = (req: GatehouseRequest): string => ownBase(ctx, req).replace(/\/+$/, '');

  router.on('GET /scim/v2/ServiceProviderConfig', (req) => ({ status: 200, body: scimJson(serviceProviderConfig(base(req.http))) }));
  router.on('GET /scim/v2/ResourceTypes', (req) => {
    const types = resourceTypes(base(req.http));
    return { status: 200, body: scimJson(listResponse(types, types.length, 1)) };
  });
  router.on('GET /scim/v2/ResourceTypes/{id}', (req) => {
    const found = resourceTypes(base(req.http)).find((t) => String(t.id).toLowerCase() === req.param('id').toLowerCase());
    if (!found) throw new AppError('not_found', `no ResourceType ${req.param('id')}`);
    return { status: 200, body: scimJson(found) };
  });
  router.on('GET /scim/v2/Schemas', (req) => {
    const all = schemas(base(req.http));
    return { status: 200, body: scimJson(listResponse(all, all.length, 1)) };
  });
  router.on('GET /scim/v2/Schemas/{id}', (req) => {
    const found = schemas(base(req.http)).find((s) => String(s.id).toLowerCase() === req.param('id').toLowerCase());
    if (!found) throw new AppError('not_found', `no Schema ${req.param('id')}`);
    return { status: 200, body: scimJson(found) };
  });

  // Users (docs/scim.md, "Users").
  const userOut = (req: GatehouseRequest, query: Pick<ListQuery, 'attributes' | 'excludedAttributes'>) => {
    const project = projection(query, USER_URNS);
    return (row: Parameters<typeof toScimUser>[0]) => project(toScimUser(row, base(req)));
  };
  const created = (req: GatehouseRequest, resource: Json, type: 'Users' | 'Groups') =>
    ({ status: 201 as const, body: scimJson(resource), headers: { Location: `${base(req)}${SCIM_BASE}/${type}/${String(resource.id)}` } });

  // Lists run their filter where heavy reads run (list.ts); `.search` is the same list asked in a body
  // (RFC 7644 §3.4.3: it reads, so it counts toward no write limit, src/http/write-rate.ts).
  // A lookup by eq (what providers send before each write, many at once) is answered here; any heavier
  // filter, an unfiltered page, and groups with their members, on a read worker (filter.ts, filterIsLight).
  const page = async (req: GatehouseRequest, callerId: string, resource: 'Users' | 'Groups', query: ListQuery): Promise<Json> => {
    checkListFilter(resource, query.filter);
    const args = { resource, query, base: base(req) };
    const light = query.filter !== undefined && filterIsLight(query.filter) && (resource === 'Users' || !wantsMembers(query));
    return light ? scimListTask(ctx, args) : ctx.reads.run('scim.list', args, callerId, ctx.clock.now());
  };
  const listed = async (req: GatehouseRequest, callerId: string, resource: 'Users' | 'Groups', query: ListQuery) =>
    ({ status: 200 as const, body: scimJson(await page(req, callerId, resource, query)) });
  /**
   * POST /scim/v2/.search (RFC 7644 §3.4.3, from the root): Users, then Groups, as one list paged across
   * both. A filter naming attributes only one type has searches that type alone (§3.4.2.2: what a
   * resource lacks is unassigned there); one neither can run is refused as the Users list refuses it.
   */
  const searchedFromRoot = async (req: GatehouseRequest, callerId: string, query: ListQuery) => {
    const types = (['Users', 'Groups'] as const).filter((resource) => {
      try {
        checkListFilter(resource, query.filter);
        return true;
      } catch {
        return false;
      }
    });
    if (types.length === 0) checkListFilter('Users', query.filter);
    const resources: Json[] = [];
    let total = 0;
    for (const resource of types) {
      // Where this type's part of the combined list starts, and how much of the page is left for it.
      const startIndex = Math.max(1, query.startIndex - total);
      const count = Math.max(0, query.count - resources.length);
      const part = await page(req, callerId, resource, { ...query, startIndex, count }) as { totalResults: number; Resources: Json[] };
      resources.push(...part.Resources.slice(0, count));
      total += part.totalResults;
    }
    return { status: 200 as const, body: scimJson(listResponse(resources, total, query.startIndex)) };
  };
  router.on('GET /scim/v2/Users', (req) => listed(req.http, req.caller.userId, 'Users', listQuery(req.http)));
  router.on('POST /scim/v2/Users/.search', async (req) => listed(req.http, req.caller.userId, 'Users', toListQuery(await req.body())));
  router.on('GET /scim/v2/Groups', (req) => listed(req.http, req.caller.userId, 'Groups', listQuery(req.http)));
  router.on('POST /scim/v2/Groups/.search', async (req) => listed(req.http, req.caller.userId, 'Groups', toListQuery(await req.body())));
  router.on('POST /scim/v2/.search', async (req) => searchedFromRoot(req.http, req.caller.userId, toListQuery(await req.body())));
  router.on('GET /scim/v2/Users/{id}', (req) => ({ status: 200, body: scimJson(userOut(req.http, listQuery(req.http))(scimUser(ctx, req.param('id')))) }));
  router.on('POST /scim/v2/Users', async (req) => {
    const input = await req.body();
    return created(req.http, toScimUser(provisionUser(ctx, req.caller, input), base(req.http)), 'Users');
  });
  router.on('PUT /scim/v2/Users/{id}', async (req) => {
    const input = await req.body();
    return { status: 200, body: scimJson(toScimUser(replaceUser(ctx, req.caller, req.param('id'), input), base(req.http))) };
  });
  router.on('PATCH /scim/v2/Users/{id}', async (req) => {
    const patch = await req.body();
    checkPatchBounds(patch.Operations);
    const row = scimUser(ctx, req.param('id'));
    const current = toScimUser(row, base(req.http));
    const patched = applyPatch(current, patch.Operations, USER_SHAPE, [USER_SCHEMA, ENTERPRISE_SCHEMA]);
    // A changed given or family name with no new display name makes the full name anew from its parts —
    // unless the provider sent a displayName of its own, which stays as sent (issue 37.6).
    const name = (r: Json) => (r.name ?? {}) as Json;
    if (row.display_name === null && (name(patched).givenName !== name(current).givenName || name(patched).familyName !== name(current).familyName)
      && patched.displayName === current.displayName && name(patched).formatted === name(current).formatted) {
      delete patched.displayName;
      delete name(patched).formatted;
    }
    // Emails the provider never sent mirror a userName that is the email: a new userName moves the email with it.
    if (row.emails === null && row.user_name === null && JSON.stringify(patched.emails) === JSON.stringify(current.emails)) delete patched.emails;
    const input = parse(ScimUserBody, canonicalKeys(patched, USER_SHAPE));
    return { status: 200, body: scimJson(toScimUser(replaceUser(ctx, req.caller, req.param('id'), input), base(req.http))) };
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
  router.on('GET /scim/v2/Groups/{id}', (req) => ({ status: 200, body: scimJson(groupOut(req.http, listQuery(req.http))(scimGroup(ctx, req.param('id')))) }));
  // Members named but offboarded are left out; the answer says who in a header (docs/scim.md).
  const skippedHeader = (skipped: string[]): Record<string, string> =>
    (skipped.length > 0 ? { 'X-Gatehouse-Skipped-Members': skipped.slice(0, 100).join(',') } : {});
  router.on('POST /scim/v2/Groups', async (req) => {
    const input = await req.body();
    const row = provisionGroup(ctx, req.caller, input);
    const reply = created(req.http, toScimGroup(row, groupMembers(ctx, row.id), base(req.http)), 'Groups');
    return { ...reply, headers: { ...reply.headers, ...skippedHeader(row.skipped) } };
  });
  router.on('PUT /scim/v2/Groups/{id}', async (req) => {
    const input = await req.body();
    const row = replaceGroup(ctx, req.caller, req.param('id'), input);
    return { status: 200, body: scimJson(toScimGroup(row, groupMembers(ctx, row.id), base(req.http))), headers: skippedHeader(row.skipped) };
  });
  router.on('PATCH /scim/v2/Groups/{id}', async (req) => {
    const patch = await req.body();
    const after = patchGroup(ctx, req.caller, req.param('id'), patch.Operations);
    // RFC 7644 §3.5.2: 204 is allowed; Okta and Entra ID accept either. The group is answered in full.
    return { status: 200, body: scimJson(toScimGroup(after, groupMembers(ctx, after.id), base(req.http))), headers: skippedHeader(after.skipped) };
  });
  router.on('DELETE /scim/v2/Groups/{id}', (req) => {
    removeGroup(ctx, req.caller, req.param('id'));
    return { status: 204 };
  });
}
