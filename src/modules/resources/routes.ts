// Placeholder: the resources area registers its routes here.
import type { AppContext } from '../../context.ts';
import type { ApiRouter } from '../../http/router.ts';

export function registerResourceRoutes(_router: ApiRouter, _ctx: AppContext): void {}
