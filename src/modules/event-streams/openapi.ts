// The event-streams area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { component, EmptyObject, extensionField, orNull } from '../../openapi/schema.ts';
import { DELIVERY_STATUSES, FAILING_AFTER } from './policy.ts';
import { API_KEY_LOCATIONS, AUTH_TYPES, CONNECTION_TYPES, CreateEventStreamInfo, UpdateEventStreamInfo } from './schemas.ts';

export const EventStreamConnectionTypeEnum = component('EventStreamConnectionTypeEnum', {
  description: 'The type of event stream connection.',
  type: 'string',
  enum: [...CONNECTION_TYPES],
});

export const WebhookAuthTypeEnum = component('WebhookAuthTypeEnum', {
  description: 'The authentication type for webhook connections.',
  type: 'string',
  enum: [...AUTH_TYPES],
});

export const WebhookApiKeyLocationEnum = component('WebhookApiKeyLocationEnum', {
  description: 'Where the API key is placed in webhook requests.',
  type: 'string',
  enum: [...API_KEY_LOCATIONS],
});

export const WebhookApiKeyCredential = component('WebhookApiKeyCredential', {
  description: 'An API key sent with every delivery. `value` is in clear only in the answer that set it; elsewhere masked.',
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    location: WebhookApiKeyLocationEnum,
    name: { type: 'string' },
    value: { type: 'string' },
  },
  required: ['id', 'name', 'value', 'location'],
});

export const WebhookHmacCredential = component('WebhookHmacCredential', {
  description:
    'A Standard Webhooks signing secret (`whsec_<base64>`). `secret` is in clear only in the answer that set or generated it; elsewhere masked.',
  type: 'object',
  properties: {
    created_at: { type: 'string', format: 'date-time' },
    id: { type: 'string', format: 'uuid' },
    secret: { type: 'string' },
  },
  required: ['id', 'secret', 'created_at'],
});

export const WebhookCredentials = component('WebhookCredentials', {
  description: 'Authentication credentials for a webhook connection.',
  type: 'object',
  properties: {
    api_key_credentials: { type: 'array', items: WebhookApiKeyCredential },
    auth_type: WebhookAuthTypeEnum,
    hmac_credential_1: orNull(WebhookHmacCredential),
    hmac_credential_2: orNull(WebhookHmacCredential),
  },
  required: ['auth_type'],
});

export const EventStreamConnection = component('EventStreamConnection', {
  description: 'The connection configuration for an event stream.',
  type: 'object',
  properties: {
    connection_type: EventStreamConnectionTypeEnum,
    credentials: WebhookCredentials,
    enabled: { type: 'boolean' },
    name: { type: 'string' },
    webhook_url: { type: 'string' },
  },
  required: ['name', 'connection_type', 'enabled'],
});

const nullableTime = { type: ['string', 'null'], format: 'date-time' };

export const EventStreamDelivery = component('EventStreamDelivery', {
  description: 'Where delivery stands: Gatehouse\'s own, not in the reference.',
  type: 'object',
  properties: {
    status: {
      type: 'string',
      enum: [...DELIVERY_STATUSES],
      description: `HEALTHY: no failed attempt since the last success; RETRYING: 1 to ${FAILING_AFTER - 1} in a row; FAILING: ${FAILING_AFTER} or more (still retried); DISABLED: enabled is false.`,
    },
    position: { type: 'integer', minimum: 0, description: 'The sequence number of the last event the receiver acknowledged.' },
    lag: { type: 'integer', minimum: 0, description: 'Events recorded but not yet delivered.' },
    consecutive_failures: { type: 'integer', minimum: 0 },
    next_attempt_at: { ...nullableTime, description: 'When a failed delivery is retried; null when not backing off.' },
    last_error: { type: ['string', 'null'], description: 'What went wrong in the last failed attempt (kept after a success, with its time).' },
    last_error_at: nullableTime,
    last_delivered_at: nullableTime,
  },
  required: ['status', 'position', 'lag', 'consecutive_failures', 'next_attempt_at', 'last_error', 'last_error_at', 'last_delivered_at'],
});

export const EventStream = component('EventStream', {
  description: 'An event streaming connection that publishes events to an external system.',
  type: 'object',
  properties: {
    connection: EventStreamConnection,
    event_stream_id: { type: 'string', format: 'uuid' },
    delivery: extensionField(EventStreamDelivery, 'Delivery state: status, position, lag and the last error.'),
  },
  required: ['event_stream_id', 'connection'],
});

export const EventStreamList = component('EventStreamList', {
  description: 'A list of event streams.',
  type: 'object',
  properties: { event_streams: { type: 'array', items: EventStream } },
  required: ['event_streams'],
});

export const EventStreamTestResult = component('EventStreamTestResult', {
  description: 'What a test delivery found.',
  type: 'object',
  properties: {
    delivered: { type: 'boolean', description: 'The receiver answered 2xx.' },
    error: { type: ['string', 'null'], description: 'Why not, in words (the status, a timeout, a refused address); null when delivered.' },
  },
  required: ['delivered', 'error'],
});

const SECRETS = 'Secrets set or generated by the request are in its answer in clear, once; every other answer masks them.';

export const eventStreamRoutes = defineRoutes('event-streams', {
  'GET /v1/event-streams': {
    role: 'admin-read',
    summary: 'List event streams',
    description: 'Oldest first, with where delivery stands. Secrets are masked.',
    responses: { 200: EventStreamList },
  },
  'POST /v1/event-streams': {
    role: 'admin',
    summary: 'Create an event stream',
    description:
      'Starts enabled, after the newest event: its own EVENT_STREAMS_CREATED is the first delivery. HMAC without a secret given ' +
      `generates one. ${SECRETS}`,
    body: CreateEventStreamInfo,
    responses: { 200: EventStream },
  },
  'PUT /v1/event-streams/{event_stream_id}': {
    role: 'admin', items: { event_stream_id: null },
    summary: 'Update an event stream',
    description:
      'Given credentials replace the old whole; a credential named by `id` without a new secret, or with the mask a GET shows of its own secret, keeps its secret (key rotation: ' +
      `keep hmac_credential_1 by id and add hmac_credential_2). Any update clears the retry back-off. ${SECRETS}`,
    body: UpdateEventStreamInfo,
    responses: { 200: EventStream },
  },
  'POST /v1/event-streams/{event_stream_id}/test': {
    role: 'admin', items: { event_stream_id: null },
    summary: 'Send a stream\'s receiver a test event',
    description:
      'Posts one event of type `EVENT_STREAM_TEST` (not in the audit trail) to the receiver now, signed and authenticated as a ' +
      'delivery is, under the same address policy and timeout, and says whether the receiver answered 2xx. Writes nothing: the ' +
      'stream\'s position and back-off stay as they were.',
    extension: true,
    responses: { 200: EventStreamTestResult },
  },
  'DELETE /v1/event-streams/{event_stream_id}': {
    role: 'admin', items: { event_stream_id: null },
    summary: 'Delete an event stream',
    responses: { 200: EmptyObject },
  },
});
