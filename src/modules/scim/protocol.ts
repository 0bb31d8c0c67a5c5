// SCIM 2.0's protocol (RFC 7644) under /scim/v2: its own bearer tokens (scope SCIM) checked in front of each
// route, its own write budget, attribute names in any case in a body, and every failure (outside a route
// too: an unknown path, a method a path lacks) in SCIM's error schema, as application/scim+json.
import type * as v from 'valibot';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import type { Protocol } from '../../http/protocol.ts';
import { createFailureThrottle } from '../../http/throttle.ts';
import type { Caller, GatehouseRequest } from '../../http/types.ts';
import { limitWrites } from '../../http/write-rate.ts';
import { isOffboarded } from '../../lib/offboarding.ts';
import { liveTokenHolder } from '../tokens/service.ts';
import { scimErrorBody } from './errors.ts';
import { SCIM_BASE } from './resources.ts';
import { ScimError } from './responses.ts';
import { canonicalKeys, GROUP_SHAPE, PATCH_SHAPE, PatchBody, ScimGroupBody, ScimUserBody, SEARCH_SHAPE, SearchBody, USER_SHAPE, type Shape } from './schemas.ts';

const BEARER = /^Bearer +([\x21-\x7e]{1,512}) *$/i;

/** The attribute names of each body a SCIM route declares, by its schema: a client may write them in any case. */
const SHAPES = new Map<v.GenericSchema, Shape>([[ScimUserBody, USER_SHAPE], [ScimGroupBody, GROUP_SHAPE], [PatchBody, PATCH_SHAPE], [SearchBody, SEARCH_SHAPE]]);

/**
 * The SCIM token's holder as a caller. Throws 401 for none, a wrong one, an API token, or an offboarded
 * user's; 403 for a user no longer an admin; 429 for a bad or missing token from an address past its
 * bad-token budget.
 */
function authenticator(ctx: AppContext): (req: GatehouseRequest) => Caller {
  const throttle = createFailureThrottle(ctx.config.authFailureLimit, ctx.config.authFailureWindowMs);
  const unauthenticated = (message: string) => new AppError('unauthenticated', message, [], { 'WWW-Authenticate': 'Bearer realm="scim"' });
  return (req) => {
    const nowMs = ctx.clock.now().getTime();
    // A valid token is let in even from an address that sent many bad ones: an identity provider shares
    // its addresses with its other customers, whose mistakes must not lock it out (issue 37.8). Bad
    // tokens from a throttled address get 429, and a valid one is served within the throttle's bound on
    // verdicts (src/http/throttle.ts), so guessing stays slow; a lookup by prefix is cheap.
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
      // Counted while blocked too: a bad token then spends the address's checks (throttle.ts).
      const blocked = throttle.retryAfter(req.clientIp, nowMs) > 0;
      throttle.fail(req.clientIp, nowMs);
      if (blocked) throttled();
      throw unauthenticated('the token is not valid: unknown, revoked or expired');
    }
    if (!throttle.admit(req.clientIp, nowMs, holder.tokenId)) throttled();
    if (holder.scope !== 'SCIM') throw unauthenticated('an API token works only on /v1; /scim/v2 takes a SCIM token (gatehouse token create --scim)');
    if (isOffboarded(holder.userStatus)) throw unauthenticated(`the token's user is ${holder.userStatus}: an offboarded user's tokens do not work`);
    if (holder.role !== 'ADMIN') throw new AppError('forbidden', "the SCIM token's user is no longer an admin, and provisioning is an admin's");
    return {
      userId: holder.userId, name: holder.name, email: holder.email, tokenId: holder.tokenId, tokenLabel: holder.label,
      tokenPreview: holder.preview, accessLevel: holder.accessLevel, role: holder.role, ip: req.clientIp,
    };
  };
}

export const SCIM: Protocol = {
  name: 'scim',
  prefix: SCIM_BASE,
  mediaType: 'application/scim+json',
  errorSchema: ScimError,
  securityScheme: 'scimBearer',
  roles: false,
  errorBody: (error) => scimErrorBody(error),
  serve(ctx) {
    const authenticate = authenticator(ctx);
    // SCIM's own budget, apart from the same user's /v1 writes: a first import creates thousands of
    // people in minutes (GATEHOUSE_SCIM_WRITE_RATE_LIMIT).
    const writeLimit = limitWrites(ctx, { limit: ctx.config.scimWriteRateLimit });
    return {
      checks: () => [
        (req, _res, next) => {
          req.caller = authenticate(req);
          next();
        },
        writeLimit,
      ],
      bodyInput(raw, schema) {
        const shape = SHAPES.get(schema);
        if (!shape) throw new Error('a SCIM route declares a body whose attribute names scim/protocol.ts does not know');
        return canonicalKeys(raw, shape);
      },
    };
  },
};
