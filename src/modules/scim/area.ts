// The SCIM 2.0 area as app.ts serves it: its store. Its routes are under /scim/v2, outside /v1, and
// authenticate their own tokens (handlers.ts, registered by app.ts before /v1 authentication).
import { defineArea } from '../../area.ts';
import { createScimStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    scim: ReturnType<typeof createScimStore>;
  }
}

export const scimArea = defineArea({
  name: 'scim',
  stores: { scim: createScimStore },
});
