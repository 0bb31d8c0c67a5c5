// The tags area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
import { createTagStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    tags: ReturnType<typeof createTagStore>;
  }
}

export const tagsArea = defineArea({
  name: 'tags',
  stores: { tags: createTagStore },
});
