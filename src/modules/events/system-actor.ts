// The actor of events Gatehouse records on its own (no caller, no token): the sweep, the outbox, connectors.
import type { Actor } from './store.ts';

/** Gatehouse acting on its own, named by what acts (shown as the event's actor_name). */
export function systemActor(name: string): Actor {
  return { userId: '00000000-0000-0000-0000-000000000000', name, email: '', tokenLabel: null, tokenPreview: null, ip: null };
}

/** The expiry sweep and the access changes it makes (dead edges ended on the way). */
export const SYSTEM_ACTOR: Actor = systemActor('Gatehouse (expiry sweep)');

/** The outbox and the connectors it drives. */
export const OUTBOX_ACTOR: Actor = systemActor('Gatehouse (outbox)');
