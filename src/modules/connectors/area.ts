// The connectors area as app.ts serves it: its store, its routes (declared in routes.ts, handled in handlers.ts), the scheduled sync,
// and propagation: it hears every access change and runs the outbox rows that push each to the remote system.
import { defineArea } from '../../area.ts';
import { connectorPush, propagateAccessChange, PUSH_KIND } from './propagation.ts';
import { tick as syncConnectors } from './service.ts';
import { checkConnectorKinds } from './adapters.ts';
import { createConnectorStore } from './store.ts';
import { connectorDeprovision, DEPROVISION_KIND, queueDeprovisions } from './provisioning.ts';

declare module '../../context.ts' {
  interface Stores {
    connectors: ReturnType<typeof createConnectorStore>;
  }
}

// What the connectors area announces, inside the transaction of its change (notifications tells the app's admin owners).
declare module '../../signals.ts' {
  interface Signals {
    /** A push gave up for good (its outbox row FAILED); `key` names the failure once (the row's seq). */
    'connectors.push-failed': { appId: string; key: string; error: string; detail?: string };
  }
}

export const connectorsArea = defineArea({
  name: 'connectors',
  stores: { connectors: createConnectorStore },
  sharedReads: { connectors: ['syncErrors'] },
  jobs: [
    // Checks each minute which connectors are due a sync (GATEHOUSE_CONNECTOR_SYNC_INTERVAL_MS).
    { name: 'connector-sync', everyMs: () => 60_000, tick: syncConnectors },
  ],
  // Queues the push of each changed edge of an app with a connector…
  onAccessChange: propagateAccessChange,
  // …and delivers it.
  outbox: { [PUSH_KIND]: connectorPush, [DEPROVISION_KIND]: connectorDeprovision },
  // A person offboarded: the remote accounts Gatehouse made for them go too, after their memberships.
  signals: { 'users.offboarded': queueDeprovisions },
  // The table of connector types holds together, and serves every stored connector, or the app does not start.
  checks: [checkConnectorKinds],
});
