// The owners area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
import { createOwnerStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    owners: ReturnType<typeof createOwnerStore>;
  }
}

export const ownersArea = defineArea({
  name: 'owners',
  stores: { owners: createOwnerStore },
  sharedReads: { owners: ['exists', 'get', 'withSourceGroup'] },
});
