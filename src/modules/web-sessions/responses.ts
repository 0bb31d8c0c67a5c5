// The web-sessions area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component, uuid, dateTime, described, paginated } from '../../openapi/responses.ts';

export const WebSession = component('WebSession', described(v.object({
  web_session_id: uuid,
  user_id: uuid,
  sign_in_method: v.picklist(['LOGIN_LINK', 'OIDC']),
  ip_address: v.optional(v.string()),
  user_agent: v.optional(v.string()),
  created_at: dateTime,
  last_seen_at: described(dateTime, 'Updated at most once a minute.'),
  expires_at: described(dateTime, 'The absolute limit; the idle limit may end it sooner.'),
}), "A console sign-in session: a browser signed in as a person (a sign-in link or single sign-on). Not a `Session`, which is a connection to a resource. The cookie's secret is never shown."));
export type WebSession = v.InferOutput<typeof WebSession>;

export const PaginatedWebSessionsList = paginated('PaginatedWebSessionsList', WebSession);

/** A one-time sign-in link (or invitation) an admin sent (POST /v1/users/{user_id}/sign-in-link, extension). */
export const SentSignInLink = component('SentSignInLink', described(v.object({
  user_id: uuid,
  email: described(v.string(), 'Where it was (or would be) mailed.'),
  kind: v.picklist(['SIGN_IN', 'INVITATION']),
  expires_at: described(dateTime, 'It works once, until then.'),
  url: v.optional(described(v.string(), 'The link, shown this once, only when `send_email` was false: pass it on to the person yourself.')),
}), 'A one-time sign-in link (or invitation) an admin sent a person. The link itself is shown only when `send_email` was false.'));
export type SentSignInLink = v.InferOutput<typeof SentSignInLink>;
