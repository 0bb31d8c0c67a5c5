// The tokens area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component, described } from '../../openapi/responses.ts';
import { TokenFields } from '../../openapi/components/people.ts';

/** A new token: Token's fields plus the secret, which no other response ever shows. */
export const IssuedToken = component('IssuedToken', described(
  v.object({ ...TokenFields.entries, token: v.pipe(v.string(), v.nonEmpty()) }),
  'A token just issued. `token` is the secret to send as `Authorization: Bearer <token>`; it is shown this once.',
));
export type IssuedToken = v.InferOutput<typeof IssuedToken>;
