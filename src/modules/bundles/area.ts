// The bundles area as app.ts serves it: its stores, its routes (declared in openapi.ts, handled in routes.ts).
import { defineArea } from '../../area.ts';
import { bundleRoutes } from './openapi.ts';
import { registerBundleRoutes } from './routes.ts';
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
  routes: bundleRoutes,
  handlers: registerBundleRoutes,
});
