// The bundles area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
import { createBundleStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    bundles: ReturnType<typeof createBundleStore>;
  }
}

export const bundlesArea = defineArea({
  name: 'bundles',
  stores: { bundles: createBundleStore },
  sharedReads: { bundles: ['exists'] },
});
