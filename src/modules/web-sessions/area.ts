// The web-sessions area as app.ts serves it: console sign-in sessions, their store and routes (routes.ts, handlers.ts).
import { defineArea } from '../../area.ts';
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
  outbox: { [SIGN_IN_EMAIL_KIND]: signInEmailHandler },
});
