// The Slack channel: the few Web API methods notifications need, spoken as Slack documents them
// (JSON or form bodies, a bot token as Bearer, `{ok:false, error}` answers, 429 with Retry-After).
import type { Outcome, SlackChannel, SlackMessage } from './channel.ts';
import { AddressRefused, outboundFetch, type AddressPolicy } from '../../../http/outbound.ts';
import { MAX_JSON_DEPTH, withinJsonDepth } from '../../../lib/json-depth.ts';

/** Slack errors that trying again cannot mend (the rest — throttling, Slack's own faults, a token being fixed — may). */
const PERMANENT = new Set([
  'channel_not_found', 'users_not_found', 'user_not_found', 'is_archived', 'msg_too_long', 'no_text', 'invalid_blocks',
  'message_not_found', 'cant_update_message', 'edit_window_closed', 'not_in_channel', 'user_not_visible',
]);

type Answer = { ok: true; body: Record<string, unknown> } | Extract<Outcome, { ok: false }>;

/**
 * A Slack Web API client over a fetch that obeys the private-address policy and follows no redirect.
 * `apiUrl` is https://slack.com/api (a stand-in's address in tests).
 */
export function createSlackChannel(apiUrl: string, token: string, addresses: AddressPolicy, timeoutMs = 10_000): SlackChannel {
  const base = apiUrl.replace(/\/+$/, '');
  const fetch = outboundFetch(addresses);
  async function call(method: string, body: Record<string, unknown>, form = false): Promise<Answer> {
    let res: Response;
    try {
      res = await fetch(`${base}/${method}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': form ? 'application/x-www-form-urlencoded' : 'application/json; charset=utf-8',
        },
        body: form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const name = (err as Error).name;
      const why = err instanceof AddressRefused ? err.message : name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${timeoutMs} ms` : 'could not connect';
      return { ok: false, error: `Slack ${method}: ${why}`, retryable: true };
    }
    const text = await res.text().catch(() => '');
    if (res.status === 429) {
      const seconds = Number(res.headers.get('retry-after'));
      return {
        ok: false, error: `Slack ${method}: rate limited (429)`, retryable: true,
        ...(Number.isFinite(seconds) && seconds >= 0 && { retryAfterMs: seconds * 1000 }),
      };
    }
    if (res.status >= 500) return { ok: false, error: `Slack ${method}: HTTP ${res.status}`, retryable: true };
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return { ok: false, error: `Slack ${method}: HTTP ${res.status} without a JSON answer`, retryable: true };
    }
    // An answer is input like any other: one nested past the bound is refused before anything walks it.
    if (parsed === null || typeof parsed !== 'object' || !withinJsonDepth(parsed)) {
      return { ok: false, error: `Slack ${method}: HTTP ${res.status} answered JSON that is not an object within ${MAX_JSON_DEPTH} levels`, retryable: true };
    }
    if (parsed.ok !== true) {
      const error = typeof parsed.error === 'string' ? parsed.error : `HTTP ${res.status}`;
      return { ok: false, error: `Slack ${method}: ${error}`, retryable: !PERMANENT.has(error) };
    }
    return { ok: true, body: parsed };
  }

  return {
    async post(channel: string, message: SlackMessage) {
      const answer = await call('chat.postMessage', { channel, text: message.text, blocks: message.blocks, unfurl_links: false });
      if (!answer.ok) return answer;
      const { channel: posted, ts } = answer.body;
      if (typeof posted !== 'string' || typeof ts !== 'string') return { ok: false, error: 'Slack chat.postMessage: answer without channel and ts', retryable: true };
      return { ok: true, channel: posted, ts };
    },
    async update(channel: string, ts: string, message: SlackMessage) {
      const answer = await call('chat.update', { channel, ts, text: message.text, blocks: message.blocks });
      return answer.ok ? { ok: true } : answer;
    },
    async userIdByEmail(email: string) {
      const answer = await call('users.lookupByEmail', { email }, true);
      if (!answer.ok) return answer;
      const id = (answer.body.user as { id?: unknown } | undefined)?.id;
      return typeof id === 'string' ? { ok: true, userId: id } : { ok: false, error: 'Slack users.lookupByEmail: answer without user.id', retryable: true };
    },
    async emailOfUser(userId: string) {
      const answer = await call('users.info', { user: userId }, true);
      if (!answer.ok) return answer;
      const email = (answer.body.user as { profile?: { email?: unknown } } | undefined)?.profile?.email;
      return typeof email === 'string' && email !== ''
        ? { ok: true, email }
        : { ok: false, error: 'Slack users.info: the user has no email the app may read (scope users:read.email)', retryable: false };
    },
  };
}
