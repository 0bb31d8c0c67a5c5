// A loopback stand-in for Slack's Web API and the interactivity requests Slack sends, speaking the
// shapes Slack documents (docs.slack.dev): methods under /api/<method>, a Bearer bot token, JSON or
// form bodies, answers `{ok: true, …}` or `{ok: false, error}` with HTTP 200, and 429 with
// Retry-After (seconds) when throttled. Tests queue faults per method.
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keepConnections } from './wait.ts';

export const SLACK_TOKEN = 'xoxb-test-bot-token';
export const SIGNING_SECRET = 'test-signing-secret-8f2d1c';

export interface SlackCall {
  method: string;
  contentType: string;
  authorization: string;
  args: Record<string, unknown>;
}

export interface PostedMessage {
  channel: string;
  ts: string;
  text: string;
  blocks: unknown[];
  /** Every version, oldest first (chat.update appends). */
  history: { text: string; blocks: unknown[] }[];
}

export type Fault = { status: 429; retryAfter: number } | { status: 500 } | { error: string };

export class SlackStandIn {
  readonly calls: SlackCall[] = [];
  readonly messages: PostedMessage[] = [];
  readonly ephemeral: { channel: string; user: string; text: string }[] = [];
  /** Slack users: id → email. */
  readonly users = new Map<string, string>();
  /** Channels the bot may post in. */
  readonly channels = new Set<string>(['C0REVIEWERS']);
  private readonly faults = new Map<string, Fault[]>();
  private seq = 0;

  private constructor(private readonly server: Server, readonly url: string) {}

  static async start(): Promise<SlackStandIn> {
    let standIn!: SlackStandIn;
    const server = keepConnections(createServer((req, res) => void standIn.handle(req, res)));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    standIn = new SlackStandIn(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`);
    return standIn;
  }

  /** Adds a Slack user with this email; returns their id. */
  addUser(email: string): string {
    const id = `U${String(this.users.size + 1).padStart(8, '0')}`;
    this.users.set(id, email);
    return id;
  }

  /** The next calls of `method` fail with these faults, in order. */
  fail(method: string, ...faults: Fault[]): void {
    this.faults.set(method, [...(this.faults.get(method) ?? []), ...faults]);
  }

  /** Messages posted to the direct-message channel of the Slack user with `email`. */
  dmsTo(email: string): PostedMessage[] {
    const id = [...this.users].find(([, e]) => e === email)?.[0];
    return this.messages.filter((m) => m.channel === `D${id}`);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const contentType = req.headers['content-type'] ?? '';
    const method = (req.url ?? '').replace(/^\/api\//, '').split('?')[0]!;
    const args: Record<string, unknown> = contentType.startsWith('application/json') ? JSON.parse(raw || '{}') : Object.fromEntries(new URLSearchParams(raw));
    this.calls.push({ method, contentType, authorization: req.headers.authorization ?? '', args });
    const json = (status: number, body: unknown, headers: Record<string, string> = {}): void =>
      void res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
    const fault = this.faults.get(method)?.shift();
    if (fault) {
      if ('error' in fault) return json(200, { ok: false, error: fault.error });
      if (fault.status === 429) return json(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(fault.retryAfter) });
      return json(500, { ok: false, error: 'internal_error' });
    }
    if (req.method !== 'POST' && req.method !== 'GET') return json(405, { ok: false, error: 'method_not_allowed' });
    if (req.headers.authorization !== `Bearer ${SLACK_TOKEN}`) return json(200, { ok: false, error: req.headers.authorization ? 'invalid_auth' : 'not_authed' });
    json(200, this.answer(method, args));
  }

  private answer(method: string, args: Record<string, unknown>): Record<string, unknown> {
    const userOf = (id: string) => ({ id, team_id: 'T0TEST', name: id.toLowerCase(), deleted: false, profile: { email: this.users.get(id), real_name: id } });
    switch (method) {
      case 'chat.postMessage': {
        const target = String(args.channel ?? '');
        const channel = this.users.has(target) ? `D${target}` : this.channels.has(target) ? target : null;
        if (channel === null) return { ok: false, error: 'channel_not_found' };
        if (!args.text && !args.blocks) return { ok: false, error: 'no_text' };
        const ts = `${1_700_000_000 + ++this.seq}.000${String(this.seq).padStart(3, '0')}`;
        const message = { text: String(args.text ?? ''), blocks: (args.blocks as unknown[]) ?? [] };
        this.messages.push({ channel, ts, ...message, history: [message] });
        return { ok: true, channel, ts, message: { type: 'message', text: message.text, ts, bot_id: 'B0TEST', blocks: message.blocks } };
      }
      case 'chat.update': {
        const found = this.messages.find((m) => m.channel === args.channel && m.ts === args.ts);
        if (!found) return { ok: false, error: 'message_not_found' };
        found.text = String(args.text ?? '');
        found.blocks = (args.blocks as unknown[]) ?? [];
        found.history.push({ text: found.text, blocks: found.blocks });
        return { ok: true, channel: found.channel, ts: found.ts, text: found.text };
      }
      case 'chat.postEphemeral':
        this.ephemeral.push({ channel: String(args.channel), user: String(args.user), text: String(args.text) });
        return { ok: true, message_ts: `${1_700_000_000 + ++this.seq}.000000` };
      case 'users.lookupByEmail': {
        const id = [...this.users].find(([, email]) => email === args.email)?.[0];
        return id ? { ok: true, user: userOf(id) } : { ok: false, error: 'users_not_found' };
      }
      case 'users.info': {
        const id = String(args.user ?? '');
        return this.users.has(id) ? { ok: true, user: userOf(id) } : { ok: false, error: 'user_not_found' };
      }
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }
}

/** The block_actions payload Slack sends when `slackUserId` clicks `actionId` on `message`. */
export function blockActions(slackUserId: string, actionId: string, requestId: string, message: { channel: string; ts: string }) {
  return {
    type: 'block_actions',
    user: { id: slackUserId, username: slackUserId.toLowerCase(), team_id: 'T0TEST' },
    api_app_id: 'A0TEST',
    team: { id: 'T0TEST', domain: 'test' },
    container: { type: 'message', message_ts: message.ts, channel_id: message.channel, is_ephemeral: false },
    channel: { id: message.channel, name: 'directmessage' },
    message: { type: 'message', ts: message.ts },
    trigger_id: '1.2.3',
    response_url: 'https://hooks.slack.com/actions/T0TEST/1/abc',
    actions: [{ type: 'button', action_id: actionId, block_id: `gatehouse_review:${requestId}`, value: requestId, action_ts: '1700000000.1' }],
  };
}

/** Form-encodes `payload` as Slack does and signs it (v0 HMAC-SHA256 over `v0:timestamp:body`). */
export function signedInteraction(payload: unknown, timestampSeconds: number, secret = SIGNING_SECRET): { body: string; headers: Record<string, string> } {
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestampSeconds}:${body}`).digest('hex')}`;
  return {
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': String(timestampSeconds), 'x-slack-signature': signature },
  };
}
