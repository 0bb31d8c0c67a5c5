// The web-sessions area as app.ts serves it: console sign-in sessions, their store and routes (routes.ts, handlers.ts).
import { defineArea } from '../../area.ts';
import { webSessionRoutes } from './routes.ts';
import { registerWebSessionRoutes } from './handlers.ts';
import { createWebSessionStore } from './store.ts';
import { SIGN_IN_EMAIL_KIND, signInEmailHandler } from './emailed-links.ts';

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
  // Sign-in links asked for on the sign-in page, mailed by the outbox (emailed-links.ts).
  outbox: { [SIGN_IN_EMAIL_KIND]: signInEmailHandler },
});
