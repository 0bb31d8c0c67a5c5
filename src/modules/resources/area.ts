// The resources area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts), its read task.
import { defineArea } from '../../area.ts';
import { createResourceStore } from './store.ts';
import type { ReadTask } from '../../reads/tasks.ts';
import { listResources, type ListResourcesInput } from './list.ts';
import type { Viewer } from '../visibility/store.ts';

/** GET /v1/resources' page, on a read worker (handlers.ts). */
const listResourcesTask = ((ctx, args: { query: ListResourcesInput; viewer: Viewer | null }) =>
  listResources(ctx, args.query, args.viewer)) satisfies ReadTask<never, unknown>;

declare module '../../context.ts' {
  interface Stores {
    resources: ReturnType<typeof createResourceStore>;
  }
}

declare module '../../reads/tasks.ts' {
  interface ReadTasks {
    'resources.list': typeof listResourcesTask;
  }
}

export const resourcesArea = defineArea({
  name: 'resources',
  stores: { resources: createResourceStore },
  sharedReads: {
    resources: ['accessLevel', 'accessLevels', 'countConfigurationsNaming', 'exists', 'getRow', 'listByTypes', 'resourceType'],
  },
  readTasks: { 'resources.list': listResourcesTask },
});
