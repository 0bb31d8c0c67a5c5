// Slack's protocol, under /slack: no token, but every request signed by Slack with the app's signing
// secret (docs.slack.dev, "Verifying requests from Slack"), checked in front of the route, which reads
// the signed form body; failures answer the one JSON error shape.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { readUpTo } from '../../http/body.ts';
import { AppError } from '../../http/errors.ts';
import { errorShape, type Protocol } from '../../http/protocol.ts';
import type { GatehouseRequest } from '../../http/types.ts';

export const INTERACTIVITY_PATH = '/slack/interactivity';
/** Slack's window: a request whose timestamp is further from now than this is refused. */
export const SIGNATURE_WINDOW_MS = 5 * 60_000;

const unsigned = (message: string) => new AppError('unauthenticated', message);

/**
 * Throws unauthenticated unless `body` carries a valid Slack signature made with `secret` within
 * five minutes of `now`, not seen before: `X-Slack-Signature` = `v0=` + hex HMAC-SHA256 of
 * `v0:{X-Slack-Request-Timestamp}:{body}` (docs.slack.dev "Verifying requests from Slack").
 */
export function verifySlackSignature(ctx: AppContext, secret: string, headers: GatehouseRequest['headers'], body: Buffer, now: Date): void {
  const timestamp = headers['x-slack-request-timestamp'];
  const signature = headers['x-slack-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string') throw unsigned('a Slack request must carry X-Slack-Request-Timestamp and X-Slack-Signature');
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now.getTime() - Number(timestamp) * 1000) > SIGNATURE_WINDOW_MS) {
    throw unsigned('the Slack request timestamp is not within five minutes of now');
  }
  const expected = Buffer.from(`v0=${createHmac('sha256', secret).update(`v0:${timestamp}:`).update(body).digest('hex')}`);
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw unsigned('the Slack request signature does not match');
  const fresh = ctx.db.transaction(() =>
    ctx.stores.notifications.firstSighting(signature, now, new Date(now.getTime() - 2 * SIGNATURE_WINDOW_MS))).immediate();
  if (!fresh) throw unsigned('this Slack request was received before; a replay is refused');
}

/** The body Slack signed, as the protocol read and checked it in front of the route. */
const signedBodies = new WeakMap<GatehouseRequest, Buffer>();

/** The signed body of a request of a Slack route (its protocol checked the signature before the handler ran). */
export function signedBody(req: GatehouseRequest): Buffer {
  const body = signedBodies.get(req);
  if (!body) throw new Error('signedBody is for the handler of a Slack route, after its protocol checked the signature');
  return body;
}

export const SLACK: Protocol = {
  name: 'slack',
  prefix: '/slack',
  mediaType: 'application/json',
  securityScheme: null,
  roles: false,
  errorBody: errorShape,
  serve: (ctx) => ({
    // 503 when Slack is not set up; 413 past the body limit; 401 unsigned, wrongly signed, stale or replayed.
    checks: () => [
      async (req, _res, next) => {
        const secret = ctx.config.slackSigningSecret;
        if (secret === undefined) throw new AppError('unavailable', 'Slack interactivity is not set up (GATEHOUSE_SLACK_SIGNING_SECRET)');
        const body = await readUpTo(req, ctx.config.maxBodyBytes);
        if (body === null) throw new AppError('payload_too_large', `the request body is larger than the ${ctx.config.maxBodyBytes}-byte limit`);
        verifySlackSignature(ctx, secret, req.headers, body, ctx.clock.now());
        signedBodies.set(req, body);
        next();
      },
    ],
  }),
};
