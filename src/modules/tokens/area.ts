// The tokens area as app.ts serves it: its stores, its routes (declared in openapi.ts, handled in routes.ts).
import { defineArea } from '../../area.ts';
import { tokenRoutes } from './openapi.ts';
import { registerTokenRoutes } from './routes.ts';
import { createTokenStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    tokens: ReturnType<typeof createTokenStore>;
  }
}

export const tokensArea = defineArea({
  name: 'tokens',
  stores: { tokens: createTokenStore },
  routes: tokenRoutes,
  handlers: registerTokenRoutes,
});
