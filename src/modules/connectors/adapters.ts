// The adapter of each connector type, by table: one line per type. What edge kinds a type carries is its
// adapter's (AdapterFactory.kinds); a type listed in CONNECTOR_TYPES without an adapter stops the app at start.
import type { AppContext } from '../../context.ts';
import type { EdgeKindName } from '../access/edges.ts';
import type { AdapterFactory, ConnectorAdapter } from './adapter.ts';
import { opalAdapter } from './opal-adapter.ts';
import { postgresAdapter } from './postgres-adapter.ts';
import { CONNECTOR_TYPES } from './schemas.ts';
import type { ConnectorRow, ConnectorType } from './store.ts';

export const CONNECTOR_ADAPTERS: Readonly<Record<ConnectorType, AdapterFactory>> = {
  OPAL_HTTP: opalAdapter,
  POSTGRES: postgresAdapter,
};

/** Throws, naming them, for connector types `adapters` has no adapter for (the connectors area's start-up check). */
export function checkAdapters(adapters: Partial<Record<ConnectorType, AdapterFactory>>): void {
  const missing = CONNECTOR_TYPES.filter((type) => adapters[type] === undefined);
  if (missing.length > 0) throw new Error(`connector type ${missing.join(', ')} has no adapter (CONNECTOR_ADAPTERS in src/modules/connectors/adapters.ts)`);
}

/** The edge kinds a connector of `type` carries: only these are pushed to it or read from it. */
export function kindsOf(type: ConnectorType): readonly EdgeKindName[] {
  return CONNECTOR_ADAPTERS[type].kinds;
}

/** The adapter for a connector row. */
export function adapterFor(ctx: AppContext, connector: ConnectorRow): ConnectorAdapter {
  return CONNECTOR_ADAPTERS[connector.connector_type].open(ctx, connector);
}
