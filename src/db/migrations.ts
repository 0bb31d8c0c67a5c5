// The migrations, in order. Each file in sql/ is listed here once; esbuild inlines the text.
import m0001 from '../../sql/0001_foundation.sql';
import m0002 from '../../sql/0002_catalogue.sql';
import m0004 from '../../sql/0004_group_bindings.sql';
import m0005 from '../../sql/0005_integration_records.sql';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: '0001_foundation', sql: m0001 },
  { version: 2, name: '0002_catalogue', sql: m0002 },
  // 3 is the access graph's (another branch); versions need not be contiguous, only increasing.
  { version: 4, name: '0004_group_bindings', sql: m0004 },
  { version: 5, name: '0005_integration_records', sql: m0005 },
];
