// A free loopback port, for a server that must be told its port before it starts (a child process,
// PostgreSQL): listen on 0, read the port, close. Another process could take it in between; on
// loopback in a test run that is rare, and the server then fails to start loudly.
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
