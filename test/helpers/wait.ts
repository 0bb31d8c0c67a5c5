// Waiting in tests without betting on the machine's speed: wait for the thing itself, bounded only so
// that a broken test fails with a message instead of hanging until the runner's timeout.

/**
 * The bound on a wait for something that takes milliseconds on a quiet machine (a tick, a delivery,
 * a connection, a process starting). Never a measure of speed: a 2-core machine shared by a dozen
 * busy processes is slower by that much, and a test must stay green there.
 */
export const PATIENCE_MS = 120_000;

/**
 * Makes a stand-in's HTTP server keep an idle connection open for PATIENCE_MS instead of Node's 5 s.
 * The client (Gatehouse's agents, fetch) reuses a kept-alive connection it believes open; the stand-in
 * runs in the same process, so when the event loop stalls for a second (a loaded machine, a long
 * synchronous step) the server's 5 s timer can close the connection under a request just written to
 * it, and that one call fails ("socket hang up", "other side closed"). The app's own server is started
 * the same way (GATEHOUSE_KEEP_ALIVE_TIMEOUT_MS in test/helpers/app.ts).
 */
export function keepConnections<T extends { keepAliveTimeout: number }>(server: T): T {
  server.keepAliveTimeout = PATIENCE_MS;
  return server;
}

/**
 * Resolves once `test` holds; rejects after `deadlineMs` naming `what`. The first checks come after
 * every macrotask (most waits end within a few); later ones a few milliseconds apart, up to 25, so a
 * long wait does not keep a core busy that the thing waited for (a child process, a peer) needs.
 */
export async function until(test: () => boolean, what: string, deadlineMs = PATIENCE_MS): Promise<void> {
  const end = Date.now() + deadlineMs;
  for (let checks = 0; !test(); checks++) {
    if (Date.now() > end) throw new Error(`${what} did not happen within ${deadlineMs} ms`);
    await new Promise((resolve) => (checks < 100 ? setImmediate(resolve) : setTimeout(resolve, Math.min(25, checks - 99))));
  }
}
