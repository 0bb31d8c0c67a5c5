// SCIM 2.0's HTTP side (RFC 7644), under /scim/v2: its own bearer tokens (scope SCIM), its own media
// type and error schema; what each call does is service.ts's. Registered before /v1 authentication.
import type { ServerResponse } from 'node:http';
import type { Polka } from 'polka';
import type { AppContext } from '../../context.ts';
import { readJsonBody } from '../../http/body.ts';
import { AppError, toAppError } from '../../http/errors.ts';
import { parse } from '../../http/parse.ts';
import { polkaTemplate, type RouteTable } from '../../http/router.ts';
import { createFailureThrottle } from '../../http/throttle.ts';
import type { Caller, GatehouseRequest } from '../../http/types.ts';
import { limitWrites } from '../../http/write-rate.ts';
import { isOffboarded } from '../../lib/offboarding.ts';
import { groupMembers } from '../access/service.ts';
import { ownBase } from '../web-sessions/cookie.ts';
import { liveTokenHolder } from '../tokens/service.ts';
import { scimErrorBody, invalidValue } from './errors.ts';
import { checkListFilter, listResponse, wantsMembers } from './list.ts';
import { applyPatch } from './patch.ts';
import { checkPatchBounds } from './group-patch.ts';
import { projection } from './projection.ts';
import {
  GROUP_URNS, MAX_RESULTS, SCIM_BASE, USER_URNS, ENTERPRISE_SCHEMA,
  USER_SCHEMA, resourceTypes, schemas, serviceProviderConfig, toScimGroup, toScimUser, type Json,
} from './resources.ts';
import { canonicalKeys, GROUP_SHAPE, PatchBody, ScimGroupBody, ScimUserBody, SearchBody, USER_SHAPE, type ListQuery } from './schemas.ts';
import {
  patchGroup, provisionGroup, provisionUser, removeGroup, removeUser, replaceGroup, replaceUser, scimGroup, scimUser,
} from './service.ts';

export const SCIM_MEDIA_TYPE = 'application/scim+json; charset=utf-8';
const BEARER = /^Bearer +([\x21-\x7e]{1,512}) *$/i;
/** RFC 7644 §3.4.3's SearchRequest attributes, in any case. */
const SEARCH_SHAPE = { names: Object.fromEntries(['schemas', 'filter', 'startIndex', 'count', 'attributes', 'excludedAttributes', 'sortBy', 'sortOrder'].map((n) => [n.toLowerCase(), n])) };
const PATCH_SHAPE = { names: { schemas: 'schemas', operations: 'Operations' }, nested: { Operations: { names: { op: 'op', path: 'path', value: 'value' } } } };

interface ScimReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}
type ScimHandler = (req: GatehouseRequest, caller: Caller) => ScimReply | Promise<ScimReply>;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    ...(body !== undefined && { 'Content-Type': SCIM_MEDIA_TYPE }),
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

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

async function body(req: GatehouseRequest, ctx: AppContext): Promise<unknown> {
  const raw = await readJsonBody(req, ctx.config.maxBodyBytes);
  return raw === null ? undefined : raw;
}

/**
 * Registers /scim/v2 on the app. Each route authenticates its own SCIM token (401 for none, a wrong one,
 * an API token, or an offboarded user's; 403 for a user no longer an admin), counts writes with the
 * per-user write limit, and answers errors in SCIM's error schema.
 */
export function registerScimRoutes(app: Polka<GatehouseRequest>, table: RouteTable, ctx: AppContext): void {
  const throttle = createFailureThrottle(ctx.config.authFailureLimit, ctx.config.authFailureWindowMs);
  // SCIM's own budget: a first import creates thousands of people in minutes (GATEHOUSE_SCIM_WRITE_RATE_LIMIT).
  const writeLimit = limitWrites(ctx, { limit: ctx.config.scimWriteRateLimit });
  const unauthenticated = (message: string) => new AppError('unauthenticated', message, [], { 'WWW-Authenticate': 'Bearer realm="scim"' });

  const authenticate = (req: GatehouseRequest): Caller => {
    const nowMs = ctx.clock.now().getTime();
    // A valid token is let in even from an address that sent many bad ones: an identity provider shares
    // its addresses with its other customers, whose mistakes must not lock it out (issue 37.8). Bad
    // tokens from a throttled address get 429, so guessing stays slow; a lookup by prefix is cheap.
    const throttled = () => {
      const wait = throttle.retryAfter(req.clientIp, nowMs);
      if (wait > 0) throw new AppError('too_many_requests', `too many failed authentications from this address; retry in ${wait} s`, [], { 'Retry-After': String(wait) });
    };
    const header = req.headers.authorization;
    if (!header) {
      throttled();
      throw unauthenticated('an Authorization: Bearer <SCIM token> header is required');
    }
    const secret = BEARER.exec(header)?.[1];
    const holder = secret === undefined ? undefined : liveTokenHolder(ctx, secret, new Date(nowMs));
    if (!holder) {
      throttled();
      throttle.fail(req.clientIp, nowMs);
      throw unauthenticated('the token is not valid: unknown, revoked or expired');
    }
    if (holder.scope !== 'SCIM') throw unauthenticated('an API token works only on /v1; /scim/v2 takes a SCIM token (gatehouse token create --scim)');
    if (isOffboarded(holder.userStatus)) throw unauthenticated(`the token's user is ${holder.userStatus}: an offboarded user's tokens do not work`);
    if (holder.role !== 'ADMIN') throw new AppError('forbidden', "the SCIM token's user is no longer an admin, and provisioning is an admin's");
    return {
      userId: holder.userId, name: holder.name, email: holder.email, tokenId: holder.tokenId, tokenLabel: holder.label,
      tokenPreview: holder.preview, accessLevel: holder.accessLevel, role: holder.role, ip: req.clientIp,
    };
  };

  const serve = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, handler: ScimHandler, options: { reads?: boolean } = {}) => {
    const template = polkaTemplate(`${SCIM_BASE}${path}`);
    app[method.toLowerCase() as 'get'](template, async (req: GatehouseRequest, res: ServerResponse) => {
      req.routeTemplate = template;
      try {
        const caller = authenticate(req);
        req.caller = caller;
        if (method !== 'GET' && !options.reads) writeLimit(req, res, () => undefined);
        const reply = await handler(req, caller);
        send(res, reply.status, reply.body, reply.headers);
      } catch (err) {
        const known = toAppError(err);
        if (!known) ctx.log.error('unhandled error', { request_id: req.requestId, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
        const error = known ?? new AppError('internal', `an unexpected error occurred; quote request id ${req.requestId} when reporting it`);
        if (res.headersSent) return void res.destroy();
        send(res, error.status, scimErrorBody(error), { ...error.headers, 'X-Request-Id': req.requestId });
      }
    });
    const pattern = (app as unknown as { routes: { pattern: RegExp }[] }).routes.at(-1)!.pattern;
    table.add({ method, template, key: `${method} ${SCIM_BASE}${path}`, pattern });
  };

  const base = (req: GatehouseRequest) => ownBase(ctx, req).replace(/\/+$/, '');

  serve('GET', '/ServiceProviderConfig', (req) => ({ status: 200, body: serviceProviderConfig(base(req)) }));
  serve('GET', '/ResourceTypes', (req) => {
    const types = resourceTypes(base(req));
    return { status: 200, body: listResponse(types, types.length, 1) };
  });
  serve('GET', '/ResourceTypes/{id}', (req) => {
    const found = resourceTypes(base(req)).find((t) => String(t.id).toLowerCase() === String(req.params.id).toLowerCase());
    if (!found) throw new AppError('not_found', `no ResourceType ${req.params.id}`);
    return { status: 200, body: found };
  });
  serve('GET', '/Schemas', (req) => {
    const all = schemas(base(req));
    return { status: 200, body: listResponse(all, all.length, 1) };
  });
  serve('GET', '/Schemas/{id}', (req) => {
    const found = schemas(base(req)).find((s) => String(s.id).toLowerCase() === String(req.params.id).toLowerCase());
    if (!found) throw new AppError('not_found', `no Schema ${req.params.id}`);
    return { status: 200, body: found };
  });

  // Users (docs/scim.md, "Users").
  const userOut = (req: GatehouseRequest, query: Pick<ListQuery, 'attributes' | 'excludedAttributes'>) => {
    const project = projection(query, USER_URNS);
    return (row: Parameters<typeof toScimUser>[0]) => project(toScimUser(row, base(req)));
  };
  const created = (req: GatehouseRequest, resource: Json, type: 'Users' | 'Groups'): ScimReply =>
    ({ status: 201, body: resource, headers: { Location: `${base(req)}${SCIM_BASE}/${type}/${String(resource.id)}` } });

  // Lists run their filter where heavy reads run (list.ts); `.search` is the same list asked in a body
  // (RFC 7644 §3.4.3: it reads, so it counts toward no write limit).
  const listed = async (req: GatehouseRequest, caller: Caller, resource: 'Users' | 'Groups', query: ListQuery): Promise<ScimReply> => {
    checkListFilter(resource, query.filter);
    return { status: 200, body: await ctx.reads.run('scim.list', { resource, query, base: base(req) }, caller.userId, ctx.clock.now()) };
  };
  const searched = async (req: GatehouseRequest) => toListQuery(parse(SearchBody, canonicalKeys(await body(req, ctx), SEARCH_SHAPE) ?? {}));
  for (const resource of ['Users', 'Groups'] as const) {
    serve('GET', `/${resource}`, (req, caller) => listed(req, caller, resource, listQuery(req)));
    serve('POST', `/${resource}/.search`, async (req, caller) => listed(req, caller, resource, await searched(req)), { reads: true });
  }
  serve('GET', '/Users/{id}', (req) => ({ status: 200, body: userOut(req, listQuery(req))(scimUser(ctx, req.params.id!)) }));
  serve('POST', '/Users', async (req, caller) => {
    const input = parse(ScimUserBody, canonicalKeys(await body(req, ctx), USER_SHAPE));
    return created(req, toScimUser(provisionUser(ctx, caller, input), base(req)), 'Users');
  });
  serve('PUT', '/Users/{id}', async (req, caller) => {
    const input = parse(ScimUserBody, canonicalKeys(await body(req, ctx), USER_SHAPE));
    return { status: 200, body: toScimUser(replaceUser(ctx, caller, req.params.id!, input), base(req)) };
  });
  serve('PATCH', '/Users/{id}', async (req, caller) => {
    const patch = parse(PatchBody, canonicalKeys(await body(req, ctx), PATCH_SHAPE));
    checkPatchBounds(patch.Operations);
    const current = toScimUser(scimUser(ctx, req.params.id!), base(req));
    const patched = applyPatch(current, patch.Operations, USER_SHAPE, [USER_SCHEMA, ENTERPRISE_SCHEMA]);
    // A changed given or family name with no new display name makes the full name anew from its parts.
    const name = (r: Json) => (r.name ?? {}) as Json;
    if ((name(patched).givenName !== name(current).givenName || name(patched).familyName !== name(current).familyName)
      && patched.displayName === current.displayName && name(patched).formatted === name(current).formatted) {
      delete patched.displayName;
      delete name(patched).formatted;
    }
    const input = parse(ScimUserBody, canonicalKeys(patched, USER_SHAPE));
    return { status: 200, body: toScimUser(replaceUser(ctx, caller, req.params.id!, input), base(req)) };
  });
  serve('DELETE', '/Users/{id}', (req, caller) => {
    removeUser(ctx, caller, req.params.id!);
    return { status: 204 };
  });

  // Groups (docs/scim.md, "Groups").
  // Members named but offboarded are left out; the answer says who in a header (docs/scim.md).
  const skippedHeader = (skipped: string[]): Record<string, string> =>
    (skipped.length > 0 ? { 'X-Gatehouse-Skipped-Members': skipped.slice(0, 100).join(',') } : {});
  const groupOut = (req: GatehouseRequest, query: Pick<ListQuery, 'attributes' | 'excludedAttributes'>) => {
    const project = projection(query, GROUP_URNS);
    const members = wantsMembers(query);
    return (row: Parameters<typeof toScimGroup>[0]) => project(toScimGroup(row, members ? groupMembers(ctx, row.id) : null, base(req)));
  };
  serve('GET', '/Groups/{id}', (req) => ({ status: 200, body: groupOut(req, listQuery(req))(scimGroup(ctx, req.params.id!)) }));
  serve('POST', '/Groups', async (req, caller) => {
    const input = parse(ScimGroupBody, canonicalKeys(await body(req, ctx), GROUP_SHAPE));
    const row = provisionGroup(ctx, caller, input);
    const reply = created(req, toScimGroup(row, groupMembers(ctx, row.id), base(req)), 'Groups');
    return { ...reply, headers: { ...reply.headers, ...skippedHeader(row.skipped) } };
  });
  serve('PUT', '/Groups/{id}', async (req, caller) => {
    const input = parse(ScimGroupBody, canonicalKeys(await body(req, ctx), GROUP_SHAPE));
    const row = replaceGroup(ctx, caller, req.params.id!, input);
    return { status: 200, body: toScimGroup(row, groupMembers(ctx, row.id), base(req)), headers: skippedHeader(row.skipped) };
  });
  serve('PATCH', '/Groups/{id}', async (req, caller) => {
    const patch = parse(PatchBody, canonicalKeys(await body(req, ctx), PATCH_SHAPE));
    const after = patchGroup(ctx, caller, req.params.id!, patch.Operations);
    // RFC 7644 §3.5.2: 204 is allowed; Okta and Entra ID accept either. The group is answered in full.
    return { status: 200, body: toScimGroup(after, groupMembers(ctx, after.id), base(req)), headers: skippedHeader(after.skipped) };
  });
  serve('DELETE', '/Groups/{id}', (req, caller) => {
    removeGroup(ctx, caller, req.params.id!);
    return { status: 204 };
  });
}
