// The HTTP server around the app: listen, and close without cutting off requests in flight.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.ts';
import type { AppContext } from './context.ts';

export interface RunningServer {
  server: Server;
  /** Base URL of the API, e.g. http://127.0.0.1:8080/v1 */
  url: string;
  port: number;
  /** Stops accepting connections and resolves when the requests in flight have finished. */
  close(): Promise<void>;
}

export function startServer(ctx: AppContext): Promise<RunningServer> {
  const app = createApp(ctx);
  // Polka's handler takes (req, res, next?) and fills in the Polka request fields itself.
  const server = createServer(app.handler as unknown as RequestListener);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(ctx.config.port, ctx.config.host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const host = ctx.config.host.includes(':') ? `[${ctx.config.host}]` : ctx.config.host;
      resolve({
        server,
        port,
        url: `http://${host}:${port}/v1`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
      });
    });
  });
}
