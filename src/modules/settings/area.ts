// The settings area as app.ts serves it: its routes (declared in routes.ts, handled in handlers.ts) and the
// database check it runs on a read worker. It has no table: it reads SETTINGS as loaded and the file itself.
import { defineArea } from '../../area.ts';
import type { ReadTask } from '../../reads/tasks.ts';
import { settingsRoutes } from './routes.ts';
import { registerSettingsRoutes } from './handlers.ts';
import { checkDatabaseTask } from './service.ts';

/** GET /v1/settings/check's integrity and foreign-key check, on a read worker (it reads the whole file). */
const checkTask = ((ctx) => checkDatabaseTask(ctx)) satisfies ReadTask<never, unknown>;

declare module '../../reads/tasks.ts' {
  interface ReadTasks {
    'settings.check': typeof checkTask;
  }
}

export const settingsArea = defineArea({
  name: 'settings',
  routes: settingsRoutes,
  handlers: registerSettingsRoutes,
  readTasks: { 'settings.check': checkTask },
});
