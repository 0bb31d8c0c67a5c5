// The named system actors of access changes and the outbox, built with events/actors.ts's systemActor.
import { systemActor } from './actors.ts';
import type { Actor } from './store.ts';

export { systemActor };

/** The expiry sweep and the access changes it makes (dead edges ended on the way). */
export const SYSTEM_ACTOR: Actor = systemActor('Gatehouse (expiry sweep)');

/** The outbox and the connectors it drives. */
export const OUTBOX_ACTOR: Actor = systemActor('Gatehouse (outbox)');
