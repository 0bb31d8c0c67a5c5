// The request-templates area as app.ts serves it: its store, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
import { createRequestTemplateStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    requestTemplates: ReturnType<typeof createRequestTemplateStore>;
  }
}

export const requestTemplatesArea = defineArea({
  name: 'request-templates',
  stores: { requestTemplates: createRequestTemplateStore },
});
