// POST /slack/interactivity: Slack's Approve and Deny buttons. Its protocol (slack-protocol.ts) has
// verified Slack's request signature; this maps the Slack user to a Gatehouse user by email, and decides
// through the requests area's own decision service — same roles, no self-approval, same audit (marked
// decided_from SLACK).
import type { AppContext } from '../../context.ts';
import { AppError, toAppError } from '../../http/errors.ts';
import { addressPolicy, outboundFetch } from '../../http/outbound.ts';
import type { SlackAcknowledgement } from './responses.ts';
import type { Caller } from '../../http/types.ts';
import { isUuid } from '../../lib/ids.ts';
import { TOO_DEEP, withinJsonDepth } from '../../lib/json-depth.ts';
import { isOffboarded } from '../../lib/offboarding.ts';
import { approveRequest, denyRequest } from '../requests/decide.ts';
import { channelsOf } from './deliver.ts';
import { APPROVE_ACTION, DENY_ACTION } from './render.ts';

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
  void outboundFetch(addressPolicy(ctx.config))(`${ctx.config.slackApiUrl.replace(/\/+$/, '')}/chat.postEphemeral`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ctx.config.slackBotToken}`, 'Content-Type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ channel, user, text }),
    signal: AbortSignal.timeout(10_000),
  }).catch(() => undefined);
}

/**
 * Handles one interaction, whose form `body` Slack signed (checked by its protocol): 200 `{ ok: true,
 * status }` after a decision; 200 `{ ok: false, code, message }` when the decision was refused (Slack
 * wants 200; the user is told why by an ephemeral message).
 */
export async function interact(ctx: AppContext, body: Buffer, clientIp: string): Promise<{ status: 200; body: SlackAcknowledgement }> {
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
    const caller = await callerFor(ctx, payload.user.id, clientIp);
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
