// Use cases that write event streams: credentials checked and resolved, then one transaction with the audit event.
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { Actor } from '../events/store.ts';
import type { ApiEvent } from '../events/mappers.ts';
import type { Caller } from '../../http/types.ts';
import type { EventType } from '../events/types.ts';
import type { AuthType, CreateEventStreamInput, UpdateEventStreamInput, WebhookCredentialsInput } from './schemas.ts';
import { looksMasked, maskSecret } from './secrets.ts';
import type { CredentialRow, StreamRow } from './store.ts';
import { toApiEventStream, type ApiEventStream } from './mappers.ts';
import { postOptions } from './delivery.ts';
import { post, webhookRequest } from './webhook.ts';

/** A new HMAC secret as Standard Webhooks writes them: `whsec_` and the base64 of 32 random bytes. */
export function newHmacSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

interface ResolvedCredentials {
  auth_type: AuthType;
  rows: CredentialRow[];
  /** Ids of the credentials whose secret this request set or generated: the answer shows them once. */
  fresh: Set<string>;
}

const empty = (list: unknown[] | undefined) => list === undefined || list.length === 0;

/**
 * The new secret a credential was sent with, or undefined to keep the stored one. A strict client
 * sends back the whole stream a GET answered, masks included: the mask of the credential's own stored
 * secret means "keep it"; any other mask is refused rather than stored as a secret.
 */
function keptUnlessNew(sent: string | undefined, old: CredentialRow | undefined, path: string): string | undefined {
  if (sent === undefined || !looksMasked(sent)) return sent;
  if (old && maskSecret(old.secret) === sent) return undefined;
  throw invalidField(path, `is a masked secret that is not ${old ? 'this credential\'s' : 'one of this stream\'s'}; send the secret itself, or its id alone to keep it`);
}

/**
 * Turns the credentials given into the rows to store, keeping the secret of a credential named by
 * `id` without a new secret, or with its own mask (GET never shows secrets, so a client cannot send
 * them back). Throws validation_failed naming `credentials.…` for what does not fit the auth_type.
 */
function resolveCredentials(input: WebhookCredentialsInput, existing: CredentialRow[], at: Date): ResolvedCredentials {
  const now = at.toISOString();
  const fresh = new Set<string>();
  const rows: CredentialRow[] = [];
  const hmacGiven = input.hmac_credential_1 != null || input.hmac_credential_2 != null;
  if (input.auth_type !== 'API_KEY' && !empty(input.api_key_credentials)) {
    throw invalidField('credentials.api_key_credentials', 'must be empty unless auth_type is API_KEY');
  }
  if (input.auth_type !== 'HMAC' && hmacGiven) {
    const slot = input.hmac_credential_1 != null ? 1 : 2;
    throw invalidField(`credentials.hmac_credential_${slot}`, 'must be absent unless auth_type is HMAC');
  }

  if (input.auth_type === 'API_KEY') {
    const keys = input.api_key_credentials ?? [];
    if (keys.length === 0) throw invalidField('credentials.api_key_credentials', 'must list at least one key when auth_type is API_KEY');
    const seen = new Set<string>();
    keys.forEach((key, index) => {
      const path = `credentials.api_key_credentials.${index}`;
      const place = `${key.location}:${key.location === 'HEADER' ? key.name.toLowerCase() : key.name}`;
      if (seen.has(place)) throw invalidField(`${path}.name`, `names the same ${key.location === 'HEADER' ? 'header' : 'query parameter'} as another key`);
      seen.add(place);
      const old = key.id === undefined ? undefined : existing.find((c) => c.kind === 'API_KEY' && c.id === key.id);
      const value = keptUnlessNew(key.value, old, `${path}.value`);
      if (key.id !== undefined && !old && value === undefined) throw invalidField(`${path}.id`, 'is not one of this stream\'s API keys');
      if (value === undefined && !old) throw invalidField(`${path}.value`, 'is required for a new key (or give the id of a key to keep its value)');
      const id = old?.id ?? newId();
      if (value !== undefined) fresh.add(id);
      rows.push({ id, kind: 'API_KEY', slot: index, name: key.name, location: key.location, secret: value ?? old!.secret, created_at: old?.created_at ?? now });
    });
  }

  if (input.auth_type === 'HMAC') {
    // With neither slot given, Gatehouse generates the first secret.
    const slots = hmacGiven ? [input.hmac_credential_1, input.hmac_credential_2] : [{}, undefined];
    slots.forEach((given, index) => {
      if (given == null) return;
      const path = `credentials.hmac_credential_${index + 1}`;
      const old = given.id === undefined ? undefined : existing.find((c) => c.kind === 'HMAC' && c.id === given.id);
      const secret = keptUnlessNew(given.secret, old, `${path}.secret`);
      if (secret !== undefined) {
        const id = newId();
        fresh.add(id);
        rows.push({ id, kind: 'HMAC', slot: index + 1, name: null, location: null, secret, created_at: now });
      } else if (given.id !== undefined) {
        if (!old) throw invalidField(`${path}.id`, 'is not one of this stream\'s HMAC secrets');
        if (rows.some((r) => r.id === old.id)) throw invalidField(`${path}.id`, 'names the same secret as hmac_credential_1');
        rows.push({ ...old, slot: index + 1 });
      } else {
        const id = newId();
        fresh.add(id);
        rows.push({ id, kind: 'HMAC', slot: index + 1, name: null, location: null, secret: newHmacSecret(), created_at: now });
      }
    });
  }
  return { auth_type: input.auth_type, rows, fresh };
}

/** Whether the resolved rows are the stored ones unchanged (a whole stream sent back as it was read). */
function sameCredentials(rows: CredentialRow[], existing: CredentialRow[]): boolean {
  const key = (c: CredentialRow) => JSON.stringify([c.id, c.kind, c.slot, c.name, c.location, c.secret]);
  const stored = new Set(existing.map(key));
  return rows.length === existing.length && rows.every((r) => stored.has(key(r)));
}

function subEvent(type: EventType, row: Pick<StreamRow, 'id' | 'name' | 'webhook_url' | 'auth_type'>, extra: Record<string, string | boolean> = {}) {
  return { sub_event_type: type, event_stream_id: row.id, event_stream_name: row.name, webhook_url: row.webhook_url, auth_type: row.auth_type, ...extra };
}

/**
 * Creates an enabled stream and records EVENT_STREAMS_CREATED. Delivery starts after the newest event
 * there was, so that creation event is the first the receiver gets. Secrets set or generated here are
 * in the answer, once. Throws validation_failed naming webhook_url when it is missing, or `credentials.…`.
 */
export function createEventStream(ctx: AppContext, actor: Actor, input: CreateEventStreamInput): ApiEventStream {
  const { eventStreams, events } = ctx.stores;
  if (input.webhook_url === undefined) throw invalidField('webhook_url', 'is required when connection_type is WEBHOOK');
  const webhookUrl = input.webhook_url;
  const at = ctx.clock.now();
  const credentials = resolveCredentials(input.credentials ?? { auth_type: 'NONE' }, [], at);
  return ctx.db.transaction(() => {
    const id = newId();
    const fields = { name: input.name, webhook_url: webhookUrl, auth_type: credentials.auth_type };
    eventStreams.create(id, fields, eventStreams.headSeq(), at);
    eventStreams.replaceCredentials(id, credentials.rows);
    events.record(actor, 'EVENT_STREAMS_CREATED', [subEvent('EVENT_STREAMS_CREATED', { id, ...fields })]);
    return toApiEventStream(eventStreams.get(id)!, eventStreams.credentials(id), eventStreams.headSeq(), credentials.fresh);
  }).immediate();
}

/**
 * Changes a stream's name, URL, enabled flag or credentials (given credentials replace the old ones
 * whole) and records EVENT_STREAMS_UPDATED. Any change clears the back-off, so the next tick tries the
 * receiver again. A disabled stream keeps its position: enabled again, it catches up. Throws not_found,
 * or validation_failed naming `credentials.…`.
 */
export function updateEventStream(ctx: AppContext, actor: Actor, id: string, input: UpdateEventStreamInput): ApiEventStream {
  const { eventStreams, events } = ctx.stores;
  const at = ctx.clock.now();
  return ctx.db.transaction(() => {
    const row = eventStreams.get(id);
    if (!row) throw notFound('event stream', id, 'event_stream_id');
    const existing = eventStreams.credentials(id);
    const credentials = input.credentials && resolveCredentials(input.credentials, existing, at);
    const fields = {
      name: input.name ?? row.name,
      webhook_url: input.webhook_url ?? row.webhook_url,
      enabled: input.enabled ?? row.enabled === 1,
      auth_type: credentials?.auth_type ?? row.auth_type,
    };
    const changed = [
      fields.name !== row.name && 'name',
      fields.webhook_url !== row.webhook_url && 'webhook_url',
      fields.enabled !== (row.enabled === 1) && 'enabled',
      credentials && !sameCredentials(credentials.rows, existing) && 'credentials',
    ].filter((x): x is string => typeof x === 'string');
    eventStreams.update(id, fields, at);
    if (credentials) eventStreams.replaceCredentials(id, credentials.rows);
    events.record(actor, 'EVENT_STREAMS_UPDATED', [
      subEvent('EVENT_STREAMS_UPDATED', { id, ...fields }, { enabled: fields.enabled, updated_fields: changed.join(',') }),
    ]);
    return toApiEventStream(eventStreams.get(id)!, eventStreams.credentials(id), eventStreams.headSeq(), credentials?.fresh);
  }).immediate();
}

/** Deletes a stream with its credentials and position, and records EVENT_STREAMS_DELETED. Throws not_found. */
export function deleteEventStream(ctx: AppContext, actor: Actor, id: string): void {
  const { eventStreams, events } = ctx.stores;
  ctx.db.transaction(() => {
    const row = eventStreams.get(id);
    if (!row) throw notFound('event stream', id, 'event_stream_id');
    eventStreams.delete(id);
    events.record(actor, 'EVENT_STREAMS_DELETED', [subEvent('EVENT_STREAMS_DELETED', row)]);
  }).immediate();
}

/** Every stream as GET shows it, secrets masked. */
export function listEventStreams(ctx: AppContext): ApiEventStream[] {
  const { eventStreams } = ctx.stores;
  const head = eventStreams.headSeq();
  return eventStreams.list().map((row) => toApiEventStream(row, eventStreams.credentials(row.id), head));
}

/** The event_type a test delivery carries: never recorded in the audit trail, so a receiver can tell it apart. */
export const TEST_EVENT_TYPE = 'EVENT_STREAM_TEST';

/**
 * Sends the stream's receiver one test event now (POST /v1/event-streams/{id}/test), signed and
 * authenticated as a delivery is and under the same address policy and timeout, and says whether the
 * receiver took it. Writes nothing: the stream's position, failures and back-off stay as they were, so
 * a test never skips or repeats an event. The network call is made outside any transaction.
 * Throws not_found for an unknown stream.
 */
export async function testEventStream(ctx: AppContext, caller: Caller, id: string): Promise<{ delivered: boolean; error: string | null }> {
  const { eventStreams } = ctx.stores;
  const stream = eventStreams.get(id);
  if (!stream) throw notFound('event stream', id, 'event_stream_id');
  const at = ctx.clock.now();
  const event: ApiEvent = {
    event_id: newId(),
    actor_user_id: caller.userId,
    actor_name: caller.name,
    event_type: TEST_EVENT_TYPE,
    created_at: at.toISOString(),
    sub_events: [],
  };
  const outcome = await post(webhookRequest(stream, eventStreams.credentials(id), event, at), postOptions(ctx));
  if (outcome.ok) return { delivered: true, error: null };
  return { delivered: false, error: 'error' in outcome ? outcome.error : 'the test was stopped' };
}
