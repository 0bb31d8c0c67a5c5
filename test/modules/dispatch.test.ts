// Polka's chain walked without promises (src/http/dispatch.ts) answers as Polka's own handler does: the
// same two apps, one with each handler, over HTTP, for a chain that passes on, throws, rejects, calls
// next with an error, ends early, decodes a percent-encoded param, and for a path no route serves.
import assert from 'node:assert/strict';
import { createServer, type RequestListener, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import polka, { type Polka } from 'polka';
import { dispatchWithoutPromises } from '../../src/http/dispatch.ts';
import type { GatehouseRequest } from '../../src/http/types.ts';

/** One app: global middleware, then routes whose steps do each thing a step can do. */
function makeApp(): Polka<GatehouseRequest> {
  const app = polka<GatehouseRequest>({
    onError: (err, _req, res) => {
      res.statusCode = 500;
      res.end(`error: ${typeof err === 'string' ? err : err.message}`);
    },
    onNoMatch: (req, res) => {
      res.statusCode = 404;
      res.end(`no match: ${req.method} ${req.path}`);
    },
  });
  app.use((req, _res, next) => {
    (req as GatehouseRequest & { trail: string[] }).trail = ['first'];
    next();
  });
  const trail = (req: GatehouseRequest) => (req as GatehouseRequest & { trail: string[] }).trail;
  const note = (name: string) => (req: GatehouseRequest, _res: unknown, next: () => void) => {
    trail(req).push(name);
    next();
  };
  const answer = (req: GatehouseRequest, res: { end(text: string): void }) => res.end(`${trail(req).join(',')} ${JSON.stringify(req.params)} ${JSON.stringify(req.query)}`);
  app.get('/ok/:id', note('a'), note('b'), answer);
  app.get('/throws', note('a'), () => {
    throw new Error('thrown');
  });
  app.get('/rejects', note('a'), async () => {
    await Promise.resolve();
    throw new Error('rejected');
  });
  app.get('/next-error', (_req, _res, next) => next('passed on'));
  app.get('/ends-early', (_req, res) => void res.end('ended'), answer);
  app.get('/falls-through', note('a'));
  app.post('/ok/:id', note('post'), answer);
  return app;
}

async function serve(app: Polka<GatehouseRequest>): Promise<{ server: Server; url: string }> {
  const server = createServer(app.handler as unknown as RequestListener);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

describe('the request handler without promises', () => {
  let polkas: { server: Server; url: string };
  let ours: { server: Server; url: string };
  before(async () => {
    polkas = await serve(makeApp());
    const app = makeApp();
    dispatchWithoutPromises(app);
    ours = await serve(app);
  });
  after(async () => {
    for (const { server } of [polkas, ours]) await new Promise<void>((done) => server.close(() => done()));
  });

  it('answers every kind of chain as Polka does', async () => {
    const cases: Array<[string, string]> = [
      ['GET', '/ok/7?x=1&y=2'], ['GET', '/ok/a%20b'], ['GET', '/ok/%E0%A4%A'], ['GET', '/OK/9/'], ['POST', '/ok/3'],
      ['GET', '/throws'], ['GET', '/rejects'], ['GET', '/next-error'], ['GET', '/ends-early'], ['GET', '/falls-through'],
      ['GET', '/nowhere'], ['PUT', '/ok/1'], ['HEAD', '/ok/1'],
    ];
    for (const [method, path] of cases) {
      const [want, got] = await Promise.all([polkas, ours].map(async ({ url }) => {
        const res = await fetch(`${url}${path}`, { method });
        return { status: res.status, body: await res.text() };
      }));
      assert.deepEqual(got, want, `${method} ${path}`);
    }
  });
});
