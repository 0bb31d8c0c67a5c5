// Placeholder: the non-human-identities area registers its routes here.
import type { AppContext } from '../../context.ts';
import type { ApiRouter } from '../../http/router.ts';

export function registerNonHumanIdentityRoutes(_router: ApiRouter, _ctx: AppContext): void {}
