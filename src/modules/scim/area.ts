// The SCIM 2.0 area as app.ts serves it: its store, and its routes under /scim/v2, of the SCIM protocol
// (protocol.ts: its own tokens, error schema and media type), through the one router.
import { defineArea } from '../../area.ts';
import { registerScimRoutes } from './handlers.ts';
import { scimRoutes } from './routes.ts';
import { createScimStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    scim: ReturnType<typeof createScimStore>;
  }
}

export const scimArea = defineArea({
  name: 'scim',
  stores: { scim: createScimStore },
  routes: scimRoutes,
  handlers: registerScimRoutes,
});
