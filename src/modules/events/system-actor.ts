// The named system actor of access changes Gatehouse makes on its own (the outbox's is OUTBOX_ACTOR, src/outbox/index.ts).
import { systemActor } from '../../lib/system-actor.ts';
import type { Actor } from './store.ts';

/** The expiry sweep and the access changes it makes (dead edges ended on the way). */
export const SYSTEM_ACTOR: Actor = systemActor('Gatehouse (expiry sweep)');
