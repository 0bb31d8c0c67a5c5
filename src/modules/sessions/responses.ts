// The sessions area's response shapes (Valibot): a user's open session on a resource, as the reference writes it; the types its mappers return and its answers in the API document.
import * as v from 'valibot';
import { component, cursor, dateTime, described, uuid } from '../../openapi/responses.ts';
import { ResourceAccessLevel } from '../access/responses.ts';

export const Session = component('Session', described(v.object({
  connection_id: uuid,
  user_id: uuid,
  resource_id: uuid,
  access_level: ResourceAccessLevel,
  expiration_date: dateTime,
}), 'An open session of a user on a resource.'));
export type Session = v.InferOutput<typeof Session>;

export const SessionsList = component('SessionsList', v.object({
  next: cursor,
  previous: cursor,
  results: v.optional(v.array(Session)),
}));
