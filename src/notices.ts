// Notices: what an area announces about a change it made (a request decided, a push given up) for other
// areas to act on, without importing them. The announcing area names each notice and its fields (interface
// Notices, augmented in its area.ts); an area that acts on one declares a listener (Area.notices), and
// announce() calls every listener inside the change's transaction (queue work there, never network calls).
import type { AppContext } from './context.ts';

/**
 * Every notice by name, with what it carries. Each announcing area adds its own where it declares itself,
 * as `declare module '../../notices.ts' { interface Notices { 'requests.decided': {...} } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Notices {}

export type NoticeName = keyof Notices;

/** What an area does on a notice, by name: runs inside the announcing change's transaction. */
export type NoticeListeners = { [K in NoticeName]?: (ctx: AppContext, notice: Notices[K], now: Date) => void };

/** Tells every area listening for `name` (ctx.registry.notices). Call inside the transaction of the change announced. */
export function announce<K extends NoticeName>(ctx: AppContext, name: K, notice: Notices[K], now: Date): void {
  const listeners = ctx.registry.notices[name] as ((ctx: AppContext, notice: Notices[K], now: Date) => void)[] | undefined;
  for (const listener of listeners ?? []) listener(ctx, notice, now);
}
