// What one call fired, as PocketBase's tests declare ExpectedEvents: the signals announced (src/signals.ts)
// and the outbox rows queued, by kind, while `call` ran against the in-process app, counted where they
// happen (the registry's signal lookup in announce(), the outbox store's insert) and restored after.
import assert from 'node:assert/strict';
import type { TestApp } from './app.ts';

/** Signal names and outbox kinds with how many times each fired. */
export interface Fired {
  signals: Record<string, number>;
  outbox: Record<string, number>;
}

/** Runs `call` and answers what it fired, and its own result. Calls must not overlap in one app. */
export async function firedBy<T>(app: TestApp, call: () => Promise<T>): Promise<{ fired: Fired; result: T }> {
  const fired: Fired = { signals: {}, outbox: {} };
  const { registry, stores } = app.ctx;
  const signals = registry.signals;
  const insert = stores.outbox.insert;
  // announce() reads the listeners of its signal once per announcement, whether or not anyone listens.
  registry.signals = new Proxy(signals, {
    get(target, name, receiver) {
      if (typeof name === 'string') fired.signals[name] = (fired.signals[name] ?? 0) + 1;
      return Reflect.get(target, name, receiver);
    },
  });
  stores.outbox.insert = ((row: Parameters<typeof insert>[0]) => {
    fired.outbox[row.kind] = (fired.outbox[row.kind] ?? 0) + 1;
    return insert(row);
  }) as typeof insert;
  try {
    return { fired, result: await call() };
  } finally {
    registry.signals = signals;
    stores.outbox.insert = insert;
  }
}

/**
 * Runs `call` and asserts it fired exactly `expected`: each signal and outbox kind listed, as many times
 * as given, and nothing else (an empty or absent list: none). Answers the call's result.
 */
export async function expectFired<T>(app: TestApp, expected: Partial<Fired>, call: () => Promise<T>): Promise<T> {
  const { fired, result } = await firedBy(app, call);
  assert.deepEqual(fired.signals, expected.signals ?? {}, 'the signals the call announced');
  assert.deepEqual(fired.outbox, expected.outbox ?? {}, 'the outbox kinds the call queued');
  return result;
}
