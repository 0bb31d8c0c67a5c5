// Placeholder: the sessions area registers its routes here.
import type { AppContext } from '../../context.ts';
import type { ApiRouter } from '../../http/router.ts';

export function registerSessionRoutes(_router: ApiRouter, _ctx: AppContext): void {}
