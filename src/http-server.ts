// The HTTP server around the app: listen with abuse limits, and close without cutting off requests in flight.
import { createServer, type RequestListener, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createApp, protocolFor } from './app.ts';
import { AppError, type ErrorCode } from './http/errors.ts';
import { ConnectionTable } from './http/connections.ts';
import type { AppContext } from './context.ts';
import { heldResponses, holdUntilDurable, startGroupCommit } from './db/group-commit.ts';

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
function refuseAndClose(req: IncomingMessage, res: ServerResponse, status: number, code: ErrorCode, message: string, headers: Record<string, string> = {}): void {
  const send = () => {
    const requestId = randomUUID();
    const { mediaType, body } = errorAnswer(req.url, code, message, requestId);
    res.shouldKeepAlive = false;
    res.writeHead(status, {
      ...headers,
      'Content-Type': `${mediaType}; charset=utf-8`,
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

/**
 * The error body for `code` in the shape of the protocol owning `target`'s path (SCIM's under /scim/v2;
 * the one error shape elsewhere, and when the target is unknown), as JSON text, and its media type.
 */
function errorAnswer(target: string | undefined, code: ErrorCode, message: string, requestId: string): { mediaType: string; body: string } {
  const protocol = protocolFor(target?.startsWith('/') ? target.replace(/[?#].*$/s, '') : '/');
  return { mediaType: protocol.mediaType, body: JSON.stringify(protocol.errorBody(new AppError(code, message), requestId)) };
}

/** The request target of the request line at the start of `packet` (what Node had read when it gave up), if it is there. */
function targetOf(packet: unknown): string | undefined {
  if (!Buffer.isBuffer(packet)) return undefined;
  return /^[A-Z]{3,7} (\/\S*)/.exec(packet.subarray(0, 8192).toString('latin1'))?.[1];
}

/**
 * Node parses a request's head before any handler runs, and answers what it cannot parse itself with a
 * bare status line; these answer in the one error shape instead. Past MAX_HEADER_BYTES: 431.
 */
function answerClientError(err: NodeJS.ErrnoException & { bytesParsed?: number; rawPacket?: unknown }, socket: Socket, log: AppContext['log']): void {
  if (!socket.writable || (err as { code?: string }).code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'headers_too_large', `the request line and headers must fit in ${MAX_HEADER_BYTES} bytes`] as const
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'request_timeout', 'the request was not sent in time'] as const
    : [400, 'validation_failed', 'the request is not well-formed HTTP/1.1'] as const;
  const reason = status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request';
  // Answered in the shape of the protocol the request was for, as far as Node read its request line.
  const requestId = answerOnSocket(socket, status, reason, code, message, {}, targetOf(err.rawPacket));
  // A client's malformed bytes are its mistake: a line at info level, never an error with a stack.
  log.info('client error', { status, error: err.code ?? err.message, request_id: requestId });
}

/**
 * Writes one answer in the one error shape straight onto `socket` (no request object: Node could not
 * parse one, or none was waited for) and closes it. Answers the request id.
 */
function answerOnSocket(socket: Socket, status: number, reason: string, code: ErrorCode, message: string, headers: Record<string, string> = {}, target?: string): string {
  const requestId = randomUUID();
  const { mediaType, body } = errorAnswer(target, code, message, requestId);
  // Keep reading (and discarding) what the client still sends, for a moment: closing with unread input
  // makes the kernel send a reset, which can destroy the answer before the client reads it.
  socket.on('data', () => {}).resume();
  setTimeout(() => socket.destroy(), 1000).unref();
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${mediaType}; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
    + `Cache-Control: no-store\r\nX-Request-Id: ${requestId}\r\n${extra}Connection: close\r\n\r\n${body}`,
  );
  return requestId;
}

/**
 * Answers a new connection from an address already holding its share, at once (before its request
 * arrives, so it holds nothing while it waits): 503 + Retry-After, then closed.
 */
function refuseOverShare(socket: Socket, share: number): void {
  answerOnSocket(socket, 503, 'Service Unavailable', 'unavailable',
    `this client address holds its share of ${share} open connections (GATEHOUSE_MAX_CONNECTIONS_PER_ADDRESS); reuse one, or retry in ${OVER_CAPACITY_RETRY_AFTER_S} s`,
    { 'Retry-After': String(OVER_CAPACITY_RETRY_AFTER_S) });
}

/**
 * Request line plus headers Gatehouse reads, in bytes: the documented filters of up to 1,000 ids in the
 * query string (~47 bytes each) must fit, with room for headers (Node's default is 16 KiB).
 */
export const MAX_HEADER_BYTES = 96 * 1024;

/**
 * Where Node itself stops reading a head: twice MAX_HEADER_BYTES. A head between the two is read, and
 * refused 431 by the request handler, which knows its path and so answers in the shape of the protocol
 * owning it (SCIM's under /scim/v2); past this, Node gives up before its request line can be known (it
 * arrived in an earlier packet) and the answer is the one error shape.
 */
const NODE_HEADER_BYTES = 2 * MAX_HEADER_BYTES;

/** The bytes of a request's head as it came: request line and header lines, CRLFs included. */
function headBytes(req: IncomingMessage): number {
  let bytes = req.method!.length + (req.url ?? '').length + 12;
  for (let i = 0; i < req.rawHeaders.length; i += 2) bytes += req.rawHeaders[i]!.length + req.rawHeaders[i + 1]!.length + 4;
  return bytes + 2;
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
  // Requests the app took whose handler has not answered yet, whether or not their client is still
  // there: a client that left does not stop its handler, which may still need a read worker and the database.
  let handling = 0;
  let handled: (() => void) | undefined;
  const answered = () => {
    handling -= 1;
    if (handling === 0) handled?.();
  };
  /**
   * A response held until its batch is durable (heldResponses), which counts as answered once its
   * handler ends it or gives it up (destroy) — not when its client leaves: that handler runs on.
   */
  class ServedResponse extends heldResponses(commits) {
    /** Whether this response is one the app took and has not answered yet. */
    handling = false;

    override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
      this.settle();
      return super.end(chunk as never, encoding as never, callback as never);
    }

    override destroy(error?: Error): this {
      this.settle();
      return super.destroy(error);
    }

    settle(): void {
      if (!this.handling) return;
      this.handling = false;
      answered();
    }
  }
  // Polka's handler takes (req, res, next?) and fills in the Polka request fields itself.
  const server = createServer(
    {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      // Node enforces the two deadlines above only when it sweeps its connections (every 30 s by
      // default), so a short deadline would be a long one; sweep often enough to keep them honest.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.headersTimeoutMs / 2))),
      maxHeaderSize: NODE_HEADER_BYTES,
      // Checked below, so the answer is in the one error shape (Node's own is a bare 400).
      requireHostHeader: false,
      ServerResponse: ServedResponse as unknown as typeof ServerResponse,
    },
    (req, res) => {
      // Answered at accept (over its address's share): what it sends now is read and discarded.
      if (overShare.has(req.socket)) req.resume();
      else if (overCapacity.has(req.socket)) refuseOverCapacity(req, res);
      else if (headBytes(req) > MAX_HEADER_BYTES) refuseAndClose(req, res, 431, 'headers_too_large', `the request line and headers must fit in ${MAX_HEADER_BYTES} bytes`);
      else if (!isOriginForm(req)) refuseAndClose(req, res, 400, 'validation_failed', 'the request target must be a path starting with /');
      else if (req.headers.host === undefined && req.httpVersionMinor === 1) refuseAndClose(req, res, 400, 'validation_failed', 'an HTTP/1.1 request must carry a Host header');
      else {
        holdUntilDurable(res);
        (res as ServedResponse).handling = true;
        handling += 1;
        handler(req, res);
      }
    },
  );
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => answerClientError(err, socket, ctx.log));
  // Each address gets a fair share of the connection table (trusted proxies excepted); when the table
  // is full, a connection that never sent a request, or sits idle, is closed to make room (src/http/connections.ts).
  // Connections still over the limit are not dropped at accept (the client would see a reset): each gets
  // one answer, 503 with Retry-After, and is then closed. Only past twice the limit (a flood, not a burst)
  // are connections destroyed at accept, to keep file descriptors bounded.
  // A connection from an address past its share is answered the same way, at once, and takes no slot.
  const overCapacity = new WeakSet<Socket>();
  const overShare = new WeakSet<Socket>();
  const connections = new ConnectionTable(config.maxConnections, config.maxConnectionsPerAddress, config.trustedProxies);
  server.on('connection', (socket: Socket) => {
    const admission = connections.admit(socket);
    if (admission === 'drop') socket.destroy();
    else if (admission === 'over-capacity') overCapacity.add(socket);
    else if (admission === 'over-share') {
      overShare.add(socket);
      refuseOverShare(socket, config.maxConnectionsPerAddress);
    }
  });

  let inFlight = 0;
  let closing = false;
  server.on('request', (req, res) => {
    inFlight += 1;
    res.once('close', connections.requestStarted(req.socket));
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
      let lapsed = () => {};
      const graceOver = new Promise<void>((resolve) => (lapsed = resolve));
      const deadline = setTimeout(() => {
        abandoned = inFlight;
        server.closeAllConnections();
        lapsed();
      }, graceMs);
      // The connections drained, then the handlers of requests whose clients left before their answer
      // (a heavy read still on a worker, a write waiting for its body): only then is nothing left that
      // needs a read worker or the database. Past the grace period nothing more is waited for.
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      const answered = new Promise<void>((resolve) => {
        if (handling === 0) resolve();
        else handled = resolve;
      });
      void Promise.all([drained, Promise.race([answered, graceOver])]).then(() => {
        clearInterval(sweep);
        clearTimeout(deadline);
        // Whatever is still batched is committed now; later writes (jobs stopping) commit alone.
        commits.stop();
        // No request is left to need a read worker; each closes its read-only connection.
        void ctx.reads.stop().finally(() => done({ abandoned }));
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
