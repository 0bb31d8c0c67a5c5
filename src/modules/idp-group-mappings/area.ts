// The idp-group-mappings area as app.ts serves it: its stores, its routes (declared in openapi.ts, handled in routes.ts).
import { defineArea } from '../../area.ts';
import { idpGroupMappingRoutes } from './openapi.ts';
import { registerIdpGroupMappingRoutes } from './routes.ts';
import { createIdpGroupMappingStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    idpGroupMappings: ReturnType<typeof createIdpGroupMappingStore>;
  }
}

export const idpGroupMappingsArea = defineArea({
  name: 'idp-group-mappings',
  stores: { idpGroupMappings: createIdpGroupMappingStore },
  routes: idpGroupMappingRoutes,
  handlers: registerIdpGroupMappingRoutes,
});
