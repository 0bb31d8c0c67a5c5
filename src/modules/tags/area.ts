// The tags area as app.ts serves it: its stores, its routes (declared in openapi.ts, handled in routes.ts).
import { defineArea } from '../../area.ts';
import { tagRoutes } from './openapi.ts';
import { registerTagRoutes } from './routes.ts';
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
