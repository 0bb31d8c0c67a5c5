// POST /slack/interactivity: Slack's Approve and Deny buttons. Verifies Slack's request signature,
// maps the Slack user to a Gatehouse user by email, and decides through the requests area's own
// decision service — same roles, no self-approval, same audit (marked decided_from SLACK).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Polka } from 'polka';
import type { AppContext } from '../../context.ts';
import { readUpTo } from '../../http/body.ts';
import { AppError, toAppError } from '../../http/errors.ts';
import { sendJson, type RouteTable } from '../../http/router.ts';
import type { Caller, GatehouseRequest } from '../../http/types.ts';
import { isUuid } from '../../lib/ids.ts';
import { TOO_DEEP, withinJsonDepth } from '../../lib/json-depth.ts';
import { isOffboarded } from '../../lib/offboarding.ts';
import { approveRequest, denyRequest } from '../requests/decide.ts';
import { channelsOf } from './deliver.ts';
import { APPROVE_ACTION, DENY_ACTION } from './render.ts';

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

interface BlockActions {
  type: string;
  user?: { id?: unknown };
  channel?: { id?: unknown };
  actions?: { action_id?: unknown; value?: unknown }[];
}

/** The payload of a form body `payload=<json>`; 400 when it is not one, or nests deeper than MAX_JSON_DEPTH. */
function payloadOf(body: Buffer): BlockActions {
  const raw = new URLSearchParams(body.toString('utf8')).get('payload');
  if (raw === null) throw new AppError('validation_failed', 'payload: a Slack interaction is a form with a payload field', [{ path: 'payload', message: 'missing' }]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new AppError('validation_failed', 'payload: not a JSON object', [{ path: 'payload', message: 'not a JSON object' }]);
  }
  if (!withinJsonDepth(parsed)) throw new AppError('validation_failed', `payload: ${TOO_DEEP}`, [{ path: 'payload', message: TOO_DEEP }]);
  return parsed as BlockActions;
}

/** The Gatehouse user behind a Slack user, as a caller with their role, found by email (users.info). */
async function callerFor(ctx: AppContext, slackUserId: string, ip: string): Promise<Caller> {
  const slack = channelsOf(ctx).slack;
  if (!slack) throw new AppError('unavailable', 'Slack is not set up (GATEHOUSE_SLACK_BOT_TOKEN)');
  const found = await slack.emailOfUser(slackUserId);
  if (!found.ok) throw new AppError('forbidden', `your Slack account's email could not be read, so Gatehouse cannot tell who you are (${found.error})`);
  const user = ctx.stores.users.getByEmail(found.email);
  if (!user || isOffboarded(user.hr_idp_status)) throw new AppError('forbidden', `no active Gatehouse user has the email of your Slack account (${found.email})`);
  return {
    userId: user.user_id, name: user.full_name, email: user.email, tokenId: null, tokenLabel: 'Slack', tokenPreview: null,
    accessLevel: 'FULL_ACCESS', role: user.organization_role, ip,
  };
}

/** Tells the clicking user, only them, why their click did nothing (chat.postEphemeral); best effort. */
function tellClicker(ctx: AppContext, payload: BlockActions, text: string): void {
  const channel = payload.channel?.id;
  const user = payload.user?.id;
  if (typeof channel !== 'string' || typeof user !== 'string' || !ctx.config.slackBotToken) return;
  void fetch(`${ctx.config.slackApiUrl.replace(/\/+$/, '')}/chat.postEphemeral`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ctx.config.slackBotToken}`, 'Content-Type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ channel, user, text }),
    signal: AbortSignal.timeout(10_000),
  }).catch(() => undefined);
}

/**
 * Handles one interaction. Answers 401 for an unsigned, wrongly signed, stale or replayed request;
 * 200 `{ ok: true, status }` after a decision; 200 `{ ok: false, code, message }` when the decision
 * was refused (Slack wants 200; the user is told why by an ephemeral message).
 */
async function interact(ctx: AppContext, req: GatehouseRequest): Promise<{ status: number; body: unknown }> {
  const secret = ctx.config.slackSigningSecret;
  if (secret === undefined) throw new AppError('unavailable', 'Slack interactivity is not set up (GATEHOUSE_SLACK_SIGNING_SECRET)');
  const body = await readUpTo(req, ctx.config.maxBodyBytes);
  if (body === null) throw new AppError('payload_too_large', `the request body is larger than the ${ctx.config.maxBodyBytes}-byte limit`);
  verifySlackSignature(ctx, secret, req.headers, body, ctx.clock.now());
  const payload = payloadOf(body);
  const action = payload.actions?.[0];
  if (payload.type !== 'block_actions' || !action || (action.action_id !== APPROVE_ACTION && action.action_id !== DENY_ACTION)) {
    // Another button (Open) or interaction: nothing to do, and Slack wants a 200.
    return { status: 200, body: { ok: true } };
  }
  const requestId = typeof action.value === 'string' && isUuid(action.value) ? action.value.toLowerCase() : null;
  if (requestId === null || typeof payload.user?.id !== 'string') {
    throw new AppError('validation_failed', 'payload.actions.0.value: not a request id', [{ path: 'payload.actions.0.value', message: 'not a request id' }]);
  }
  try {
    const caller = await callerFor(ctx, payload.user.id, req.clientIp);
    const via = { decided_from: 'SLACK' };
    if (action.action_id === APPROVE_ACTION) {
      const status = approveRequest(ctx, caller, requestId, 'REGULAR', undefined, via);
      return { status: 200, body: { ok: true, status } };
    }
    denyRequest(ctx, caller, requestId, 'Denied from Slack', undefined, via);
    return { status: 200, body: { ok: true, status: 'DENIED' } };
  } catch (err) {
    const known = toAppError(err);
    if (!known || known.code === 'unavailable') throw err;
    tellClicker(ctx, payload, `Gatehouse did not record your decision: ${known.message}`);
    return { status: 200, body: { ok: false, code: known.code, message: known.message } };
  }
}

/** Registers POST /slack/interactivity on the app, outside /v1 (Slack signs its requests; it has no bearer token). */
export function registerSlackInteractivity(app: Polka<GatehouseRequest>, routes: RouteTable, ctx: AppContext): void {
  app.post(INTERACTIVITY_PATH, async (req: GatehouseRequest, res: ServerResponse) => {
    req.routeTemplate = INTERACTIVITY_PATH;
    const reply = await interact(ctx, req);
    sendJson(res, reply.status, reply.body);
  });
  routes.add({ method: 'POST', template: INTERACTIVITY_PATH, key: `POST ${INTERACTIVITY_PATH}`, pattern: (app as unknown as { routes: { pattern: RegExp }[] }).routes.at(-1)!.pattern });
}
