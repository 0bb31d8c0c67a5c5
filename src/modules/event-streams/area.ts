// The event-streams area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts), its background job.
import { defineArea } from '../../area.ts';
import { tick as deliverEventStreams } from './delivery.ts';
import { createEventStreamStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    eventStreams: ReturnType<typeof createEventStreamStore>;
  }
}

export const eventStreamsArea = defineArea({
  name: 'event-streams',
  stores: { eventStreams: createEventStreamStore },
  jobs: [
    { name: 'event-stream-delivery', everyMs: (config) => config.eventStreamIntervalMs, tick: deliverEventStreams },
  ],
});
