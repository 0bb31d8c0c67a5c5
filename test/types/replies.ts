// Checked by `npm run typecheck`, never run: a handler's reply is typed from its route's declared
// `responses`, so each reply marked @ts-expect-error below must fail the type check. Should one of them
// start to compile (the typing of replies lost), tsc reports its now unused @ts-expect-error and fails.
import * as v from 'valibot';
import { defineArea } from '../../src/area.ts';
import { defineRoutes } from '../../src/http/route.ts';
import { created, done, ok, text } from '../../src/http/router.ts';

const Widget = v.object({ widget_id: v.string(), name: v.string(), colour: v.optional(v.picklist(['red', 'blue'])) });

const widgetRoutes = defineRoutes('widgets', {
  'GET /v1/widgets/{widget_id}': { role: 'read', items: { widget_id: null }, summary: 'Get a widget', responses: { 200: Widget } },
  'POST /v1/widgets': { role: 'admin', summary: 'Make a widget', responses: { 201: Widget } },
  'PUT /v1/widgets/{widget_id}': { role: 'admin', items: { widget_id: null }, summary: 'Rename a widget', responses: { 200: Widget } },
  'DELETE /v1/widgets/{widget_id}': { role: 'admin', items: { widget_id: null }, summary: 'Delete a widget', responses: { 200: v.object({}) } },
});

export const typedRepliesArea = defineArea({
  name: 'typed-replies',
  routes: widgetRoutes,
  handlers: (router) => {
    router.on('GET /v1/widgets/{widget_id}', (req) => {
      const widget_id = req.param('widget_id');
      if (widget_id === 'a') return ok({ widget_id, name: 'A' });
      if (widget_id === 'b') return ok({ widget_id, name: 'B', colour: 'red' });
      // A field the schema does not have:
      // @ts-expect-error 'size' does not exist in the declared Widget
      if (widget_id === 'c') return ok({ widget_id, name: 'C', size: 3 });
      // A field it requires, left out (here misspelt):
      // @ts-expect-error 'name' is missing from the reply
      if (widget_id === 'd') return ok({ widget_id, nmae: 'D' });
      // A value outside its enumeration:
      // @ts-expect-error 'green' is not a colour the schema allows
      if (widget_id === 'e') return ok({ widget_id, name: 'E', colour: 'green' });
      // A page is not JSON, so no schema types it: allowed.
      return text('text/plain', 'a widget');
    });
    // In an async handler, from a value built beforehand:
    router.on('POST /v1/widgets', async () => {
      const widget = { widget_id: 'w', name: 'W', colour: 'blue' as const };
      if (Math.random() > 0.5) return created(widget);
      const wrong = { widget_id: 'w', name: 7 };
      // @ts-expect-error name must be a string
      return created(wrong);
    });
    router.on('DELETE /v1/widgets/{widget_id}', () => done());
    // A status the route does not declare (it declares 200): the handler does not fit the route.
    // @ts-expect-error PUT /v1/widgets/{widget_id} answers 200, not 201
    router.on('PUT /v1/widgets/{widget_id}', () => created({ widget_id: 'w', name: 'W' }));
  },
});
