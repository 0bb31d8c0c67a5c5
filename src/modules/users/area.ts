// The users area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
import { createUserStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    users: ReturnType<typeof createUserStore>;
  }
}

// What the users area announces, inside the transaction of its change.
declare module '../../signals.ts' {
  interface Signals {
    /** A person was offboarded (their status left ACTIVE for SUSPENDED, DEPROVISIONED or DELETED); their access has ended. */
    'users.offboarded': { userId: string; status: string };
    /** A person's email changed (users/service.ts changeUserEmail): both addresses are to be told. */
    'users.email-changed': { userId: string; previousEmail: string; email: string; actorName: string | null };
  }
}

export const usersArea = defineArea({
  name: 'users',
  stores: { users: createUserStore },
  sharedReads: { users: ['count', 'exists', 'get', 'getByEmail'] },
});
