// The settings area as app.ts serves it: its routes (declared in routes.ts, handled in handlers.ts), its
// table of settings stored on the Settings page (laid under the environment by src/live-config.ts), and
// the database check it runs on a read worker.
import { defineArea } from '../../area.ts';
import type { ReadTask } from '../../reads/tasks.ts';
import { checkDatabaseTask, readStoredSettings } from './service.ts';
import { createSettingsStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    settings: ReturnType<typeof createSettingsStore>;
  }
}

/** GET /v1/settings/check's integrity and foreign-key check, on a read worker (it reads the whole file). */
const checkTask = ((ctx) => checkDatabaseTask(ctx)) satisfies ReadTask<never, unknown>;

declare module '../../reads/tasks.ts' {
  interface ReadTasks {
    'settings.check': typeof checkTask;
  }
}

export const settingsArea = defineArea({
  name: 'settings',
  stores: { settings: createSettingsStore },
  readTasks: { 'settings.check': checkTask },
  storedSettings: readStoredSettings,
});
