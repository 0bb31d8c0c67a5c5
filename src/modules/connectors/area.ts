// The connectors area as app.ts serves it: its store, its routes (declared in openapi.ts, handled in routes.ts), the scheduled sync.
import { defineArea } from '../../area.ts';
import { connectorRoutes } from './openapi.ts';
import { registerConnectorRoutes } from './routes.ts';
import { tick as syncConnectors } from './service.ts';
import { createConnectorStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    connectors: ReturnType<typeof createConnectorStore>;
  }
}

export const connectorsArea = defineArea({
  name: 'connectors',
  stores: { connectors: createConnectorStore },
  sharedReads: { connectors: ['syncErrors'] },
  routes: connectorRoutes,
  handlers: registerConnectorRoutes,
  jobs: [
    // Checks each minute which connectors are due a sync (GATEHOUSE_CONNECTOR_SYNC_INTERVAL_MS).
    { name: 'connector-sync', everyMs: () => 60_000, tick: syncConnectors },
  ],
});
