// The queries area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts), its read task.
import { defineArea } from '../../area.ts';
import { createQueryStore } from './store.ts';
import type { ReadTask } from '../../reads/tasks.ts';
import type { RunQueryInput } from './schemas.ts';
import { runNodeQuery } from './service.ts';
import type { Viewer } from '../visibility/store.ts';

/** POST /v1/queries/nodes, on a read worker (handlers.ts). */
const runQueryTask = ((ctx, args: { input: RunQueryInput; viewer: Viewer | null }, now, budget) =>
  runNodeQuery(ctx, args.input, now, args.viewer, budget)) satisfies ReadTask<never, unknown>;

declare module '../../context.ts' {
  interface Stores {
    queries: ReturnType<typeof createQueryStore>;
  }
}

declare module '../../reads/tasks.ts' {
  interface ReadTasks {
    'queries.run': typeof runQueryTask;
  }
}

export const queriesArea = defineArea({
  name: 'queries',
  stores: { queries: createQueryStore },
  readTasks: { 'queries.run': runQueryTask },
});
