// The console area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component, uuid, dateTime, described } from '../../openapi/responses.ts';
import { User } from '../users/responses.ts';

export const ConsoleSession = component('ConsoleSession', described(v.object({
  user: User,
  web_session_id: uuid,
  expires_at: dateTime,
  csrf_token: v.string(),
}), 'Who the console is signed in as, and the CSRF token to send as `X-CSRF-Token` with every write.'));
export type ConsoleSession = v.InferOutput<typeof ConsoleSession>;

export const SignInEmailAnswer = component('SignInEmailAnswer', described(v.object({
  message: v.string(),
}), 'What the sign-in page says after *Email me a sign-in link*: the same words whether or not the address is known.'));
