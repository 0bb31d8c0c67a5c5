// Placeholder: the apps area registers its routes here.
import type { AppContext } from '../../context.ts';
import type { ApiRouter } from '../../http/router.ts';

export function registerAppRoutes(_router: ApiRouter, _ctx: AppContext): void {}
