// The sessions area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
import { createSessionStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    sessions: ReturnType<typeof createSessionStore>;
  }
}

export const sessionsArea = defineArea({
  name: 'sessions',
  stores: { sessions: createSessionStore },
  sharedReads: { sessions: ['openWhere'] },
});
