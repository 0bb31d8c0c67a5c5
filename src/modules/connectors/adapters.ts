// The connector types, by table: one line per type, each a ConnectorKind (adapter.ts) carrying its whole
// kind. Everything else — which apps have a connector, the PUT body and the answer, masking, the resource
// type a sync creates, the console's form — is read from here. A stored connector whose type no kind
// serves, or a table that contradicts itself, stops the app at start (checkKinds).
import * as v from 'valibot';
import type { AppContext } from '../../context.ts';
import { parse } from '../../http/parse.ts';
import { APP_TYPES } from '../apps/schemas.ts';
import { RESOURCE_TYPES } from '../resources/kinds.ts';
import type { ConnectorAdapter, ConnectorKind } from './adapter.ts';
import { opalConnector } from './opal-adapter.ts';
import { postgresConnector } from './postgres-adapter.ts';
import type { ConnectorRow } from './store.ts';

export const CONNECTOR_KINDS: readonly ConnectorKind[] = [opalConnector, postgresConnector];

/**
 * Throws, naming the problem, when `kinds` contradicts itself (a type or an app type twice, an app or resource
 * type the reference does not have, a secret that is no field of the configuration, a field without a
 * title) or when `storedTypes` (the connector types of the database's connectors) names a type no kind serves.
 */
export function checkKinds(kinds: readonly ConnectorKind[], storedTypes: readonly string[] = []): void {
  const types = new Set<string>();
  const appTypes = new Set<string>();
  for (const kind of kinds) {
    if (types.has(kind.type)) throw new Error(`connector type ${kind.type} has two adapters`);
    if (appTypes.has(kind.appType)) throw new Error(`app type ${kind.appType} has two connector types`);
    types.add(kind.type);
    appTypes.add(kind.appType);
    if (!(APP_TYPES as readonly string[]).includes(kind.appType)) throw new Error(`connector type ${kind.type}: app type ${kind.appType} is not an AppTypeEnum value`);
    if (!(RESOURCE_TYPES as readonly string[]).includes(kind.resourceType)) throw new Error(`connector type ${kind.type}: resource type ${kind.resourceType} is not a ResourceTypeEnum value`);
    for (const field of Object.keys(kind.secrets)) {
      if (!(field in kind.configuration.entries)) throw new Error(`connector type ${kind.type}: secret ${field} is not a field of its configuration`);
    }
    for (const [field, schema] of Object.entries(kind.configuration.entries)) {
      if (v.getTitle(schema) === undefined) throw new Error(`connector type ${kind.type}: field ${field} has no v.title (the console's label)`);
    }
  }
  const orphans = [...new Set(storedTypes)].filter((type) => !types.has(type));
  if (orphans.length > 0) throw new Error(`connector type ${orphans.join(', ')} has no adapter (CONNECTOR_KINDS in src/modules/connectors/adapters.ts), and the database has connectors of it`);
}

/** The connectors area's start-up check: the table, and every stored connector's type served by it. */
export const checkConnectorKinds = (ctx: AppContext): void => checkKinds(CONNECTOR_KINDS, ctx.stores.connectors.types());

/** The kind of a connector type; throws for a type no kind serves (the start-up check makes that impossible for stored rows). */
export function kindOf(type: string): ConnectorKind {
  const kind = CONNECTOR_KINDS.find((k) => k.type === type);
  if (!kind) throw new Error(`connector type ${type} has no adapter`);
  return kind;
}

/** The kind whose connector apps of `appType` have, if any. */
export const kindOfApp = (appType: string): ConnectorKind | undefined => CONNECTOR_KINDS.find((k) => k.appType === appType);

/** The adapter for a connector row, its stored configuration checked by its kind's schema again. */
export function adapterFor(ctx: AppContext, connector: ConnectorRow): ConnectorAdapter {
  const kind = kindOf(connector.connector_type);
  return kind.open(ctx, connector, parse(kind.configuration, connector.configuration));
}
