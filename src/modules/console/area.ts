// The console as app.ts serves it: its pages, files, sign-in and sign-out under /console, of the console
// protocol (protocol.ts), through the one router. Its data comes from /v1 with the session cookie.
import { defineArea } from '../../area.ts';

export const consoleArea = defineArea({
  name: 'console',
});
