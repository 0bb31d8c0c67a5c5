// The migrations, in order. Each file in sql/ is listed here once; esbuild inlines the text.
import m0001 from '../../sql/0001_foundation.sql';
import m0002 from '../../sql/0002_catalogue.sql';
import m0003 from '../../sql/0003_access_graph.sql';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: '0001_foundation', sql: m0001 },
  { version: 2, name: '0002_catalogue', sql: m0002 },
  { version: 3, name: '0003_access_graph', sql: m0003 },
];
