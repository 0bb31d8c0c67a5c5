// Signals: what an area announces about a change it made (a request decided, a push given up) for other
// areas to act on, without importing them. A signal stays inside the process; a *notice* is a message to a
// person (the notifications area). The announcing area names each signal and its fields (interface
// Signals, augmented in its area.ts); an area that acts on one declares a listener (Area.signals), and
// announce() calls every listener inside the change's transaction (queue work there, never network calls).
import type { AppContext } from './context.ts';

/**
 * Every signal by name, with what it carries. Each announcing area adds its own where it declares itself,
 * as `declare module '../../signals.ts' { interface Signals { 'requests.decided': {...} } }`.
 */
export interface Signals {}

export type SignalName = keyof Signals;

/** What an area does on a signal, by name: runs inside the announcing change's transaction. */
export type SignalListeners = { [K in SignalName]?: (ctx: AppContext, signal: Signals[K], now: Date) => void };

/** Tells every area listening for `name` (ctx.registry.signals). Call inside the transaction of the change announced. */
export function announce<K extends SignalName>(ctx: AppContext, name: K, signal: Signals[K], now: Date): void {
  const listeners = ctx.registry.signals[name] as ((ctx: AppContext, signal: Signals[K], now: Date) => void)[] | undefined;
  for (const listener of listeners ?? []) listener(ctx, signal, now);
}
