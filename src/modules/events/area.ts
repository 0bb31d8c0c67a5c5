// The events area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
import { createEventStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    events: ReturnType<typeof createEventStore>;
  }
}

export const eventsArea = defineArea({
  name: 'events',
  stores: { events: createEventStore },
  sharedReads: { events: ['after'] },
});
