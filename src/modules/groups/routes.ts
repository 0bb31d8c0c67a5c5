// Placeholder: the groups area registers its routes here.
import type { AppContext } from '../../context.ts';
import type { ApiRouter } from '../../http/router.ts';

export function registerGroupRoutes(_router: ApiRouter, _ctx: AppContext): void {}
