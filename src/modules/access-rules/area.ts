// The access-rules area as app.ts serves it: its stores, its routes (declared in routes.ts, handled in handlers.ts).
import { defineArea } from '../../area.ts';
import { createAccessRuleStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    accessRules: ReturnType<typeof createAccessRuleStore>;
  }
}

export const accessRulesArea = defineArea({
  name: 'access-rules',
  stores: { accessRules: createAccessRuleStore },
  sharedReads: { accessRules: ['isRule'] },
});
