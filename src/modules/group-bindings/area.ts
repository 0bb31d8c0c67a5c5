// The group-bindings area as app.ts serves it: its stores, its routes (declared in openapi.ts, handled in routes.ts).
import { defineArea } from '../../area.ts';
import { groupBindingRoutes } from './openapi.ts';
import { registerGroupBindingRoutes } from './routes.ts';
import { createGroupBindingStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    groupBindings: ReturnType<typeof createGroupBindingStore>;
  }
}

export const groupBindingsArea = defineArea({
  name: 'group-bindings',
  stores: { groupBindings: createGroupBindingStore },
  routes: groupBindingRoutes,
  handlers: registerGroupBindingRoutes,
});
