// The web-sessions area as app.ts serves it: console sign-in sessions, their store and routes (openapi.ts, routes.ts).
import { defineArea } from '../../area.ts';
import { webSessionRoutes } from './openapi.ts';
import { registerWebSessionRoutes } from './routes.ts';
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
