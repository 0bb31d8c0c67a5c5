// The integration-records area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
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
});
