// The notifications area as app.ts serves it: its store, its routes and its schedule (delivery is the outbox's job).
import { defineArea } from '../../area.ts';
import { notificationRoutes } from './openapi.ts';
import { registerNotificationRoutes } from './routes.ts';
import { tick as scheduleNotifications } from './schedule.ts';
import { createNotificationStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    notifications: ReturnType<typeof createNotificationStore>;
  }
}

export const notificationsArea = defineArea({
  name: 'notifications',
  stores: { notifications: createNotificationStore },
  routes: notificationRoutes,
  handlers: registerNotificationRoutes,
  // Reminders, escalation, expiry warnings and digests.
  jobs: [{ name: 'notification-schedule', everyMs: (config) => config.notifyIntervalMs, tick: scheduleNotifications }],
});
