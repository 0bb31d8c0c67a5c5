// The apps area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
import { createAppStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    apps: ReturnType<typeof createAppStore>;
  }
}

export const appsArea = defineArea({
  name: 'apps',
  stores: { apps: createAppStore },
  sharedReads: { apps: ['exists', 'get'] },
});
