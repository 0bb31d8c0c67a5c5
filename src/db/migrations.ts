// The migrations, in order. Each file in sql/ is listed here once; esbuild inlines the text.
import m0001 from '../../sql/0001_foundation.sql';
import m0002 from '../../sql/0002_catalogue.sql';
import m0003 from '../../sql/0003_access_graph.sql';
import m0004 from '../../sql/0004_group_bindings.sql';
import m0005 from '../../sql/0005_integration_records.sql';
import m0006 from '../../sql/0006_audit_chain.sql';
import m0007 from '../../sql/0007_organization_roles.sql';
import m0008 from '../../sql/0008_requests.sql';
import m0009 from '../../sql/0009_templates_and_visibility.sql';
import m0010 from '../../sql/0010_event_streams.sql';
import m0011 from '../../sql/0011_access_reviews.sql';
import m0012 from '../../sql/0012_request_readers.sql';
import m0013 from '../../sql/0013_outbox.sql';
import m0014 from '../../sql/0014_connectors.sql';
import m0015 from '../../sql/0015_notifications.sql';
import m0016 from '../../sql/0016_console.sql';
import m0017 from '../../sql/0017_uar_reviewers.sql';
import m0018 from '../../sql/0018_request_templates.sql';
import m0019 from '../../sql/0019_uar_snapshot_slices.sql';
import m0020 from '../../sql/0020_provisioning.sql';
import m0021 from '../../sql/0021_unmatched_remote_access.sql';
import m0022 from '../../sql/0022_connector_configuration.sql';
import m0023 from '../../sql/0023_scim_user_names.sql';
import m0024 from '../../sql/0024_on_call.sql';
import m0025 from '../../sql/0025_break_glass.sql';
import m0027 from '../../sql/0027_stored_settings.sql';
import m0030 from '../../sql/0030_on_call_item_caps.sql';
import { hashUnchainedEvents } from './hash-events.ts';
import type { Db } from './open.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** What SQL cannot do (hashing), run after `sql` in the same transaction. */
  after?: (db: Db) => void;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: '0001_foundation', sql: m0001 },
  { version: 2, name: '0002_catalogue', sql: m0002 },
  { version: 3, name: '0003_access_graph', sql: m0003 },
  { version: 4, name: '0004_group_bindings', sql: m0004 },
  { version: 5, name: '0005_integration_records', sql: m0005 },
  { version: 6, name: '0006_audit_chain', sql: m0006, after: hashUnchainedEvents },
  { version: 7, name: '0007_organization_roles', sql: m0007 },
  { version: 8, name: '0008_requests', sql: m0008 },
  { version: 9, name: '0009_templates_and_visibility', sql: m0009 },
  { version: 10, name: '0010_event_streams', sql: m0010 },
  { version: 11, name: '0011_access_reviews', sql: m0011 },
  { version: 12, name: '0012_request_readers', sql: m0012 },
  { version: 13, name: '0013_outbox', sql: m0013 },
  { version: 14, name: '0014_connectors', sql: m0014 },
  { version: 15, name: '0015_notifications', sql: m0015 },
  { version: 16, name: '0016_console', sql: m0016 },
  { version: 17, name: '0017_uar_reviewers', sql: m0017 },
  { version: 18, name: '0018_request_templates', sql: m0018 },
  { version: 19, name: '0019_uar_snapshot_slices', sql: m0019 },
  { version: 20, name: '0020_provisioning', sql: m0020 },
  { version: 21, name: '0021_unmatched_remote_access', sql: m0021 },
  { version: 22, name: '0022_connector_configuration', sql: m0022 },
  { version: 23, name: '0023_scim_user_names', sql: m0023 },
  { version: 24, name: '0024_on_call', sql: m0024 },
  { version: 25, name: '0025_break_glass', sql: m0025 },
  { version: 27, name: '0027_stored_settings', sql: m0027 },
  { version: 30, name: '0030_on_call_item_caps', sql: m0030 },
];
