// The outbox as an area: its store and its job (no routes: connectors and notices expose their own views of it).
import { defineArea } from '../area.ts';
import { tick as runOutbox } from './index.ts';
import { createOutboxStore } from './store.ts';

declare module '../context.ts' {
  interface Stores {
    outbox: ReturnType<typeof createOutboxStore>;
  }
}

export const outboxArea = defineArea({
  name: 'outbox',
  stores: { outbox: createOutboxStore },
  jobs: [
    // The one work queue (connector pushes, notices): due rows run within a second of being due.
    { name: 'outbox', everyMs: (config) => config.outboxIntervalMs, tick: runOutbox },
  ],
});
