// The idp-group-mappings area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
import { createIdpGroupMappingStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    idpGroupMappings: ReturnType<typeof createIdpGroupMappingStore>;
  }
}

export const idpGroupMappingsArea = defineArea({
  name: 'idp-group-mappings',
  stores: { idpGroupMappings: createIdpGroupMappingStore },
});
