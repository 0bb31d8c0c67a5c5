// Who acts when Gatehouse records an event on its own (no caller, no token): one all-zero user id, and a
// name saying what acted ("Gatehouse (expiry sweep)"), so the audit trail tells the jobs apart.
import type { Actor } from '../modules/events/store.ts';

/** The user id of every event Gatehouse records on its own; no user row has it. */
export const SYSTEM_USER_ID = '00000000-0000-0000-0000-000000000000';

/** The actor of events Gatehouse records on its own, named `name`. */
export const systemActor = (name: string): Actor => ({ userId: SYSTEM_USER_ID, name, email: '', tokenLabel: null, tokenPreview: null, ip: null });
