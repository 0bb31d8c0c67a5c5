// The SCIM 2.0 area as app.ts serves it: its store, and its routes under /scim/v2, of the SCIM protocol
// (protocol.ts: its own tokens, error schema and media type), through the one router.
import { defineArea } from '../../area.ts';
import { createScimStore } from './store.ts';
import { scimListTask } from './list.ts';

declare module '../../context.ts' {
  interface Stores {
    scim: ReturnType<typeof createScimStore>;
  }
}

declare module '../../reads/tasks.ts' {
  interface ReadTasks {
    'scim.list': typeof scimListTask;
  }
}

// What the SCIM area announces, inside a write transaction of its own.
declare module '../../signals.ts' {
  interface Signals {
    /** The identity provider asked to offboard someone it may not (an admin, a service user); it was refused (403). */
    'scim.offboarding-refused': { userId: string; status: string; why: string };
  }
}

export const scimArea = defineArea({
  name: 'scim',
  stores: { scim: createScimStore },
  readTasks: { 'scim.list': scimListTask },
});
