// The tags area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
import { tagRoutes } from './routes.ts';
import { registerTagRoutes } from './handlers.ts';
import { createTagStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    tags: ReturnType<typeof createTagStore>;
  }
}

export const tagsArea = defineArea({
  name: 'tags',
  stores: { tags: createTagStore },
  routes: tagRoutes,
  handlers: registerTagRoutes,
});
