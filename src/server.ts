// The HTTP server around the app: listen with abuse limits, and close without cutting off requests in flight.
import { createServer, type RequestListener, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createApp } from './app.ts';
import type { AppContext } from './context.ts';
import { holdUntilDurable, startGroupCommit } from './db/group-commit.ts';

export interface ClosedServer {
  /** Requests still unanswered when the grace period ran out; their connections were cut. */
  abandoned: number;
}

export interface RunningServer {
  server: Server;
  /** Base URL of the API, e.g. http://127.0.0.1:8080/v1 */
  url: string;
  port: number;
  /** Requests received and not yet answered. */
  inFlight(): number;
  /** Commits the writes batched so far now (group commit), e.g. before printing what one of them made. */
  commitNow(): void;
  /**
   * Stops accepting connections, lets the requests in flight finish for up to `graceMs`
   * (default config.shutdownTimeoutMs), then cuts whatever is left. Idempotent.
   */
  close(graceMs?: number): Promise<ClosedServer>;
}

/** Seconds a client over the connection limit is asked to wait before retrying. */
export const OVER_CAPACITY_RETRY_AFTER_S = 1;

/**
 * Answers a request on a connection over the limit: 503 + Retry-After, in the one error shape, then
 * closes. The request is read to its end first, so closing leaves no unread input (which would reset).
 */
function refuseOverCapacity(req: IncomingMessage, res: ServerResponse): void {
  refuseAndClose(req, res, 503, 'unavailable', `the service is at its connection limit; retry in ${OVER_CAPACITY_RETRY_AFTER_S} s`, {
    'Retry-After': String(OVER_CAPACITY_RETRY_AFTER_S),
  });
}

/**
 * Answers before the app sees the request, in the one error shape, then closes. The request is read
 * to its end first, so closing leaves no unread input (which would reset).
 */
function refuseAndClose(req: IncomingMessage, res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  const send = () => {
    const requestId = randomUUID();
    const body = JSON.stringify({ code, message, details: [], request_id: requestId });
    res.shouldKeepAlive = false;
    res.writeHead(status, {
      ...headers,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
      'X-Request-Id': requestId,
      Connection: 'close',
    });
    res.end(body);
  };
  if (req.readableEnded) send();
  else req.once('end', send).resume();
}

/**
 * Only origin-form targets (`/v1/...`) reach the app. `OPTIONS *` and absolute-form targets
 * (`GET http://host/v1/...`) would skip every middleware mounted on `/` (authentication included):
 * they get 400 here.
 */
function isOriginForm(req: IncomingMessage): boolean {
  return req.url !== undefined && req.url.startsWith('/');
}

/** How often keep-alive connections that have gone idle are closed while shutting down. */
const IDLE_SWEEP_MS = 25;

/**
 * Starts listening on config.host:config.port (0 picks a free port). Rejects with the listen
 * error (EADDRINUSE, EACCES...) when the address cannot be taken.
 */
export function startServer(ctx: AppContext): Promise<RunningServer> {
  const { config } = ctx;
  const app = createApp(ctx);
  const handler = app.handler as unknown as RequestListener;
  // Many requests' transactions committed by one fsync; each answer held until its batch is durable
  // (db/group-commit.ts). A lost batch may have been read from: forget cached token holders.
  const commits = startGroupCommit(ctx.db, {
    onLost: (err) => {
      ctx.stores.tokens.forgetCached();
      ctx.log.error('a batch of writes could not be committed; its requests were cut off unanswered', { error: err instanceof Error ? err.message : String(err) });
    },
  });
  // Polka's handler takes (req, res, next?) and fills in the Polka request fields itself.
  const server = createServer(
    {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      // Node enforces the two deadlines above only when it sweeps its connections (every 30 s by
      // default), so a short deadline would be a long one; sweep often enough to keep them honest.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.headersTimeoutMs / 2))),
    },
    (req, res) => {
      if (overCapacity.has(req.socket)) refuseOverCapacity(req, res);
      else if (!isOriginForm(req)) refuseAndClose(req, res, 400, 'validation_failed', 'the request target must be a path starting with /');
      else {
        holdUntilDurable(res, commits);
        handler(req, res);
      }
    },
  );
  // Connections past maxConnections are not dropped at accept (the client would see a reset): each
  // gets one answer, 503 with Retry-After, and is then closed. Only past twice the limit (a flood, not
  // a burst) are connections destroyed at accept, to keep file descriptors bounded.
  const overCapacity = new WeakSet<Socket>();
  let open = 0;
  server.on('connection', (socket: Socket) => {
    open += 1;
    socket.once('close', () => {
      open -= 1;
    });
    if (open > 2 * config.maxConnections) socket.destroy();
    else if (open > config.maxConnections) overCapacity.add(socket);
  });

  let inFlight = 0;
  let closing = false;
  server.on('request', (_req, res) => {
    inFlight += 1;
    // During shutdown, tell keep-alive clients not to send another request on this connection.
    if (closing) res.shouldKeepAlive = false;
    res.once('close', () => {
      inFlight -= 1;
    });
  });

  let closed: Promise<ClosedServer> | undefined;
  const close = (graceMs = config.shutdownTimeoutMs): Promise<ClosedServer> => {
    closed ??= new Promise<ClosedServer>((done) => {
      closing = true;
      let abandoned = 0;
      // A connection that finished its request sits idle until we close it; server.close() only
      // waits, it never ends busy keep-alive connections itself.
      const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
      const deadline = setTimeout(() => {
        abandoned = inFlight;
        server.closeAllConnections();
      }, graceMs);
      server.close(() => {
        clearInterval(sweep);
        clearTimeout(deadline);
        // Whatever is still batched is committed now; later writes (jobs stopping) commit alone.
        commits.stop();
        done({ abandoned });
      });
      server.closeIdleConnections();
    });
    return closed;
  };

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const host = config.host.includes(':') ? `[${config.host}]` : config.host;
      resolve({ server, port, url: `http://${host}:${port}/v1`, inFlight: () => inFlight, commitNow: commits.flush, close });
    });
  });
}
