// The configuration-templates area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
import { createConfigurationTemplateStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    configurationTemplates: ReturnType<typeof createConfigurationTemplateStore>;
  }
}

export const configurationTemplatesArea = defineArea({
  name: 'configuration-templates',
  stores: { configurationTemplates: createConfigurationTemplateStore },
  sharedReads: { configurationTemplates: ['countNaming', 'get'] },
});
