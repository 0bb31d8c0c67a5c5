// The tokens area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
import { createTokenStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    tokens: ReturnType<typeof createTokenStore>;
  }
}

export const tokensArea = defineArea({
  name: 'tokens',
  stores: { tokens: createTokenStore },
});
