// Placeholder: the owners area registers its routes here.
import type { AppContext } from '../../context.ts';
import type { ApiRouter } from '../../http/router.ts';

export function registerOwnerRoutes(_router: ApiRouter, _ctx: AppContext): void {}
