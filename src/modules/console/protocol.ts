// The console's protocol, under /console: pages and files for a browser, and sign-in and sign-out, whose
// routes check the session cookie, the sign-in form's token and CSRF themselves (web-sessions/cookie.ts).
// Failures answer the one JSON error shape, except a page address no page has: the console's own 404 page.
import { errorShape, type Protocol } from '../../http/protocol.ts';
import { PAGE_HEADERS, shell } from './pages.ts';
import { sendReply, text } from '../../http/router.ts';

export const CONSOLE: Protocol = {
  name: 'console',
  prefix: '/console',
  mediaType: 'application/json',
  securityScheme: null,
  roles: false,
  errorBody: errorShape,
  serve: (ctx) => ({
    checks: () => [],
    // A person who follows a stale or mistyped console link (`GET /console/nope`) gets the console's
    // shell with 404, whose script shows its own "no such page" with the navigation; the files under
    // /console/assets/ and every other method answer the JSON error.
    answer(req, res, error) {
      const unknownPage = req.protocol === undefined && (error.code === 'not_found' || error.code === 'method_not_allowed')
        && (req.method === 'GET' || req.method === 'HEAD') && !req.path.toLowerCase().startsWith('/console/assets/');
      if (!unknownPage) return false;
      sendReply(res, text('text/html', shell(ctx), PAGE_HEADERS, 404), 'text/html');
      return true;
    },
  }),
};
