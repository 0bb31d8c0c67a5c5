// Waiting in tests without betting on the machine's speed: wait for the thing itself, bounded only so
// that a broken test fails with a message instead of hanging until the runner's timeout.

/**
 * The bound on a wait for something that takes milliseconds on a quiet machine (a tick, a delivery,
 * a connection, a process starting). Never a measure of speed: a 2-core machine shared by a dozen
 * busy processes is slower by that much, and a test must stay green there.
 */
export const PATIENCE_MS = 120_000;

/** Resolves once `test` holds, checking after every macrotask; rejects after `deadlineMs` naming `what`. */
export async function until(test: () => boolean, what: string, deadlineMs = PATIENCE_MS): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!test()) {
    if (Date.now() > end) throw new Error(`${what} did not happen within ${deadlineMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
