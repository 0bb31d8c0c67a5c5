// The integration-records area as app.ts serves it: its stores, its routes (declared in openapi.ts, handled in routes.ts).
import { defineArea } from '../../area.ts';
import { integrationRecordRoutes } from './openapi.ts';
import { registerIntegrationRecordRoutes } from './routes.ts';
import { createIntegrationRecordStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    integrationRecords: ReturnType<typeof createIntegrationRecordStore>;
  }
}

export const integrationRecordsArea = defineArea({
  name: 'integration-records',
  stores: { integrationRecords: createIntegrationRecordStore },
  sharedReads: { integrationRecords: ['exists', 'get'] },
  routes: integrationRecordRoutes,
  handlers: registerIntegrationRecordRoutes,
});
