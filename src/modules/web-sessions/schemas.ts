// Valibot schemas for console sign-in sessions.
import * as v from 'valibot';
import { PageQueryEntries, Uuid } from '../../http/common-schemas.ts';
import { Email } from '../users/schemas.ts';

export const ListWebSessionsQuery = v.object({
  ...PageQueryEntries,
  user_id: v.optional(Uuid),
});

/** The sign-in page's *Email me a sign-in link* (POST /console/sign-in/email), as JSON or a form. */
export const SignInEmailBody = v.object({
  email: Email,
  /** The console page to land on after signing in with the link (a path under /console; anything else lands on Home). */
  return_to: v.optional(v.pipe(v.string('must be a string'), v.maxLength(300, 'must be at most 300 characters'))),
});

/** An admin sends a person a sign-in link or an invitation (POST /v1/users/{user_id}/sign-in-link). */
export const SendSignInLinkBody = v.optional(v.object({
  kind: v.optional(v.picklist(['SIGN_IN', 'INVITATION'], 'must be SIGN_IN or INVITATION'), 'SIGN_IN'),
  send_email: v.optional(v.boolean('must be true or false'), true),
}), {});
