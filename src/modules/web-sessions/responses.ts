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
