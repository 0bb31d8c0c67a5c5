// Valibot schemas for event streams: the reference's CreateEventStreamInfo and UpdateEventStreamInfo.
import * as v from 'valibot';
import { Name, Text, Uuid } from '../../http/common-schemas.ts';
import { looksMasked } from './secrets.ts';

export const CONNECTION_TYPES = ['WEBHOOK'] as const;
export const AUTH_TYPES = ['NONE', 'API_KEY', 'HMAC'] as const;
export const API_KEY_LOCATIONS = ['HEADER', 'QUERY_PARAM'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];
export type ApiKeyLocation = (typeof API_KEY_LOCATIONS)[number];

/** At most this many API keys on one stream. */
export const MAX_API_KEYS = 10;

const LowerUuid = v.pipe(Uuid, v.toLowerCase());

/**
 * An http or https URL without user info (credentials belong in `credentials`, where they are not
 * shown back) or fragment. Any host is allowed, loopback included: see docs/event-streams.md.
 */
export const WebhookUrl = v.pipe(
  Text(2048),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.check((raw) => URL.canParse(raw), 'must be an absolute http or https URL'),
  v.check((raw) => ['http:', 'https:'].includes(new URL(raw).protocol), 'must be an http or https URL'),
  v.check((raw) => {
    const url = new URL(raw);
    return url.username === '' && url.password === '';
  }, 'must not carry a user name or password; use credentials instead'),
  v.check((raw) => !raw.includes('#'), 'must not have a fragment'),
);

// A header name is an RFC 9110 token; these are written by Gatehouse itself and cannot be replaced.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// A header value Gatehouse sends: visible ASCII, spaces and tabs (RFC 9110 field-value, without obs-text).
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
const RESERVED_HEADERS = ['content-type', 'content-length', 'host', 'user-agent', 'connection', 'transfer-encoding', 'webhook-id', 'webhook-timestamp', 'webhook-signature'];

const ApiKeyCredential = v.pipe(
  v.object({
    id: v.optional(LowerUuid),
    name: v.pipe(Text(200), v.trim(), v.minLength(1, 'must not be empty')),
    value: v.optional(v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(4096, 'must be at most 4096 characters'))),
    location: v.optional(v.picklist(API_KEY_LOCATIONS, `must be one of ${API_KEY_LOCATIONS.join(', ')}`), 'HEADER'),
  }),
  v.forward(
    v.check(
      (key) => key.location !== 'HEADER' || (HEADER_NAME.test(key.name) && !RESERVED_HEADERS.includes(key.name.toLowerCase())),
      `must be an HTTP header name other than ${RESERVED_HEADERS.join(', ')}`,
    ),
    ['name'],
  ),
  // Node refuses such a header when sending, so the stream could never deliver: refused here instead.
  v.forward(
    v.check((key) => key.location !== 'HEADER' || key.value === undefined || HEADER_VALUE.test(key.value), 'must be printable ASCII to go in a header (no control characters or line breaks)'),
    ['value'],
  ),
);
export type ApiKeyCredentialInput = v.InferOutput<typeof ApiKeyCredential>;

/**
 * An HMAC secret: `secret` sets one (`whsec_` and the base64 of 24 to 64 random bytes); without it, or
 * with the mask GET shows of it, `id` keeps a secret the stream already has; neither makes Gatehouse
 * generate one.
 */
const HmacCredential = v.nullish(
  v.object({
    id: v.optional(LowerUuid),
    secret: v.optional(
      v.pipe(
        v.string('must be a string'),
        // A masked secret passes here: the service keeps the stored one when the mask is its own.
        v.check((raw) => hmacKeyLength(raw) !== undefined || looksMasked(raw), 'must be whsec_ followed by the base64 of 24 to 64 bytes'),
      ),
    ),
  }),
);
export type HmacCredentialInput = NonNullable<v.InferOutput<typeof HmacCredential>>;

/** The number of key bytes in a `whsec_<base64>` secret, or undefined when it is not one of 24 to 64 bytes. */
export function hmacKeyLength(secret: string): number | undefined {
  const match = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(secret);
  if (!match) return undefined;
  const key = Buffer.from(match[1]!, 'base64');
  if (key.toString('base64') !== match[1]) return undefined; // not canonical base64
  return key.length >= 24 && key.length <= 64 ? key.length : undefined;
}

export const WebhookCredentials = v.object({
  auth_type: v.picklist(AUTH_TYPES, `must be one of ${AUTH_TYPES.join(', ')}`),
  api_key_credentials: v.optional(
    v.pipe(v.array(ApiKeyCredential, 'must be a list of API keys'), v.maxLength(MAX_API_KEYS, `must list at most ${MAX_API_KEYS} keys`)),
  ),
  hmac_credential_1: v.optional(HmacCredential),
  hmac_credential_2: v.optional(HmacCredential),
});
export type WebhookCredentialsInput = v.InferOutput<typeof WebhookCredentials>;

export const CreateEventStreamInfo = v.object({
  name: Name(200),
  connection_type: v.picklist(CONNECTION_TYPES, `must be one of ${CONNECTION_TYPES.join(', ')}`),
  webhook_url: v.optional(WebhookUrl),
  credentials: v.optional(WebhookCredentials),
});
export type CreateEventStreamInput = v.InferOutput<typeof CreateEventStreamInfo>;

const UpdateFields = {
  name: v.optional(Name(200)),
  webhook_url: v.optional(WebhookUrl),
  enabled: v.optional(v.boolean('must be true or false')),
  credentials: v.optional(WebhookCredentials),
};

/**
 * The reference's UpdateEventStreamInfo. A client that sends back the whole EventStream a GET
 * answered has these fields under `connection`: they are read from there too (top-level ones win),
 * so such a PUT changes what it says instead of silently nothing.
 */
export const UpdateEventStreamInfo = v.pipe(
  v.object({ ...UpdateFields, connection: v.optional(v.object(UpdateFields, 'must be an object')) }),
  v.transform(({ connection, ...top }) => ({
    ...connection,
    ...Object.fromEntries(Object.entries(top).filter(([, value]) => value !== undefined)),
  }) as v.InferOutput<v.ObjectSchema<typeof UpdateFields, undefined>>),
);
export type UpdateEventStreamInput = v.InferOutput<typeof UpdateEventStreamInfo>;
