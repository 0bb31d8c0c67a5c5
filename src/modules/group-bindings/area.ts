// The group-bindings area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
import { createGroupBindingStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    groupBindings: ReturnType<typeof createGroupBindingStore>;
  }
}

export const groupBindingsArea = defineArea({
  name: 'group-bindings',
  stores: { groupBindings: createGroupBindingStore },
});
