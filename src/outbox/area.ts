// The outbox as app.ts builds it: its store and its job (src/outbox/index.ts). It serves no routes.
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
  // The one work queue (connector pushes, notices): due rows run within a second of being due.
  jobs: [{ name: 'outbox', everyMs: (config) => config.outboxIntervalMs, tick: runOutbox }],
});
