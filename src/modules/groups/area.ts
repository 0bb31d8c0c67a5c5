// The groups area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
import { createGroupStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    groups: ReturnType<typeof createGroupStore>;
  }
}

export const groupsArea = defineArea({
  name: 'groups',
  stores: { groups: createGroupStore },
  sharedReads: { groups: ['countConfigurationsNaming', 'exists', 'get', 'getRow'] },
});
