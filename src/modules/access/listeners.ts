// Who hears of every access change: one entry per area that reacts (connector propagation, notices).
// Each is called by changeAccess inside the change's transaction, once per edge changed; it may
// write its own rows and queue outbox work (src/outbox/), and must never do network work.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../events/store.ts';
import type { AccessChange } from './changes.ts';
import { propagateAccessChange } from '../connectors/propagation.ts';
import { tellAccessEnded } from '../notifications/access-ended.ts';

export type AccessChangeListener = (ctx: AppContext, actor: Actor, change: AccessChange, now: Date) => void;

/** The seam for notices (issue 20): add a listener here; it sees every change the one owner makes. */
export const ACCESS_CHANGE_LISTENERS: AccessChangeListener[] = [
  // Queues the push of each changed edge of an app with a connector.
  propagateAccessChange,
  // Queues the notice telling a person their own access ended (removed, revoked, expired, offboarded).
  tellAccessEnded,
];
