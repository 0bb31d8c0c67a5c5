// The web-sessions area as app.ts serves it: console sign-in sessions, their store and routes (routes.ts, handlers.ts).
import { defineArea } from '../../area.ts';
import { webSessionRoutes } from './routes.ts';
import { registerWebSessionRoutes } from './handlers.ts';
import { createWebSessionStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    webSessions: ReturnType<typeof createWebSessionStore>;
  }
}

export const webSessionsArea = defineArea({
  name: 'web-sessions',
  stores: { webSessions: createWebSessionStore },
  routes: webSessionRoutes,
  handlers: registerWebSessionRoutes,
});
