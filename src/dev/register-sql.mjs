// Registers src/dev/sql-hooks.mjs; passed to node/tsx as `--import ./src/dev/register-sql.mjs`.
import { register } from 'node:module';

register('./sql-hooks.mjs', import.meta.url);

// How a read worker (src/reads/pool.ts) starts src/main.ts under the same hooks: Node 20 runs neither
// --import preloads nor the hooks they register in worker threads, so the worker registers them itself.
globalThis.__gatehouseDevWorker = {
  tsxApi: import.meta.resolve('tsx/esm/api'),
  registerSql: import.meta.url,
  main: new URL('../main.ts', import.meta.url).href,
};
