// Who acts when Gatehouse records an event on its own (no caller, no token): one all-zero user id, and a
// name saying what acted ("Gatehouse (expiry sweep)"), so the audit trail tells the jobs apart; and a
// user acting without a token (the CLI's operator, a user's own setup).
import type { Actor } from '../modules/events/store.ts';

/** The user id of every event Gatehouse records on its own; no user row has it. */
export const SYSTEM_USER_ID = '00000000-0000-0000-0000-000000000000';

/** The actor of events Gatehouse records on its own, named `name`. */
export const systemActor = (name: string): Actor => ({ userId: SYSTEM_USER_ID, name, email: '', tokenLabel: null, tokenPreview: null, ip: null });

/** The actor for what an operator does through the CLI, or what a user's own setup records. */
export function actorFor(user: { user_id: string; full_name: string; email: string }): Actor {
  return { userId: user.user_id, name: user.full_name, email: user.email, tokenLabel: null, tokenPreview: null, ip: null };
}
