// The event-streams area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { DELIVERY_STATUSES, FAILING_AFTER } from './policy.ts';
import { API_KEY_LOCATIONS, AUTH_TYPES, CONNECTION_TYPES } from './schemas.ts';
import { component, uuid, dateTime, integer, extension, described } from '../../openapi/responses.ts';

export const EventStreamConnectionTypeEnum = component('EventStreamConnectionTypeEnum', described(v.picklist(CONNECTION_TYPES), 'The type of event stream connection.'));

export const WebhookAuthTypeEnum = component('WebhookAuthTypeEnum', described(v.picklist(AUTH_TYPES), 'The authentication type for webhook connections.'));

export const WebhookApiKeyLocationEnum = component('WebhookApiKeyLocationEnum', described(v.picklist(API_KEY_LOCATIONS), 'Where the API key is placed in webhook requests.'));

export const WebhookApiKeyCredential = component('WebhookApiKeyCredential', described(v.object({
  id: uuid,
  location: WebhookApiKeyLocationEnum,
  name: v.string(),
  value: v.string(),
}), 'An API key sent with every delivery. `value` is in clear only in the answer that set it; elsewhere masked.'));
export type WebhookApiKeyCredential = v.InferOutput<typeof WebhookApiKeyCredential>;

export const WebhookHmacCredential = component('WebhookHmacCredential', described(v.object({
  created_at: dateTime,
  id: uuid,
  secret: v.string(),
}), 'A Standard Webhooks signing secret (`whsec_<base64>`). `secret` is in clear only in the answer that set or generated it; elsewhere masked.'));
export type WebhookHmacCredential = v.InferOutput<typeof WebhookHmacCredential>;

export const WebhookCredentials = component('WebhookCredentials', described(v.object({
  api_key_credentials: v.optional(v.array(WebhookApiKeyCredential)),
  auth_type: WebhookAuthTypeEnum,
  hmac_credential_1: v.optional(v.nullable(WebhookHmacCredential)),
  hmac_credential_2: v.optional(v.nullable(WebhookHmacCredential)),
}), 'Authentication credentials for a webhook connection.'));
export type WebhookCredentials = v.InferOutput<typeof WebhookCredentials>;

export const EventStreamConnection = component('EventStreamConnection', described(v.object({
  connection_type: EventStreamConnectionTypeEnum,
  credentials: v.optional(WebhookCredentials),
  enabled: v.boolean(),
  name: v.string(),
  webhook_url: v.optional(v.string()),
}), 'The connection configuration for an event stream.'));
export type EventStreamConnection = v.InferOutput<typeof EventStreamConnection>;

/** Where delivery stands: Gatehouse's own, not in the reference. */
export const EventStreamDelivery = v.object({
  status: described(v.picklist(DELIVERY_STATUSES), `HEALTHY: no failed attempt since the last success; RETRYING: 1 to ${FAILING_AFTER - 1} in a row; FAILING: ${FAILING_AFTER} or more (still retried); DISABLED: enabled is false.`),
  position: described(v.pipe(integer, v.minValue(0)), 'The sequence number of the last event the receiver acknowledged.'),
  lag: described(v.pipe(integer, v.minValue(0)), 'Events recorded but not yet delivered.'),
  consecutive_failures: v.pipe(integer, v.minValue(0)),
  next_attempt_at: v.nullable(described(dateTime, 'When a failed delivery is retried; null when not backing off.')),
  last_error: v.nullable(described(v.string(), 'What went wrong in the last failed attempt (kept after a success, with its time).')),
  last_error_at: v.nullable(dateTime),
  last_delivered_at: v.nullable(dateTime),
});
export type EventStreamDelivery = v.InferOutput<typeof EventStreamDelivery>;

export const EventStream = component('EventStream', described(v.object({
  connection: EventStreamConnection,
  event_stream_id: uuid,
  delivery: v.optional(extension(EventStreamDelivery, 'Delivery state: status, position, lag and the last error.')),
}), 'An event streaming connection that publishes events to an external system.'));
export type EventStream = v.InferOutput<typeof EventStream>;

export const EventStreamList = component('EventStreamList', described(v.object({
  event_streams: v.array(EventStream),
}), 'A list of event streams.'));

export const EventStreamTestResult = component('EventStreamTestResult', described(v.object({
  delivered: described(v.boolean(), 'The receiver answered 2xx.'),
  error: v.nullable(described(v.string(), 'Why not, in words (the status, a timeout, a refused address); null when delivered.')),
}), 'What a test delivery found.'));
export type EventStreamTestResult = v.InferOutput<typeof EventStreamTestResult>;
