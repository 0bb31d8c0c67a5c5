// The service's own routes, outside every protocol's prefix and without a token: the health check, the API
// document (GET /openapi.json) and the page that renders it (GET /docs).
import { defineArea, type Area } from '../area.ts';
import { defineRoutes } from '../http/route.ts';
import { text, type Page } from '../http/router.ts';
import { SERVICE } from '../http/v1.ts';
import { buildOpenApiDocument } from './document.ts';
import type { OperationGroup } from './operations.ts';
import * as v from 'valibot';
import { component, described } from './responses.ts';

const Health = component('Health', described(v.object({ status: v.picklist(['ok']) }), 'The service is up and answering.'));

/** What /openapi.json answers: the document itself, of which the client may rely on these two fields. */
const OpenApiDocument = described(v.objectWithRest({ openapi: v.string(), paths: v.record(v.string(), v.unknown()) }, v.unknown()), 'An OpenAPI 3.1 document.');

const textOf = (description: string) => described(v.string(), description);

export const serviceRoutes = defineRoutes('service', {
  'GET /healthz': {
    summary: 'Check the service is up',
    description: 'For load balancers and supervisors; needs no token and touches nothing.',
    extension: true,
    public: true,
    responses: { 200: Health },
  },
  'GET /openapi.json': {
    summary: 'Get this API document',
    description: 'OpenAPI 3.1, generated from the code that serves the API.',
    extension: true,
    public: true,
    responses: { 200: OpenApiDocument },
  },
  'GET /docs': {
    summary: 'Read this API document in a browser',
    description: 'A page that renders /openapi.json with Swagger UI; every file it needs is served here, so it works offline.',
    extension: true,
    public: true,
    responseMediaType: 'text/html',
    responses: { 200: textOf('An HTML page.') },
  },
  'GET /docs/viewer.js': {
    summary: 'The /docs page\'s script',
    extension: true,
    public: true,
    responseMediaType: 'text/javascript',
    responses: { 200: textOf('Swagger UI\'s bundle and the lines that start it.') },
  },
  'GET /docs/viewer.css': {
    summary: 'The /docs page\'s style sheet',
    extension: true,
    public: true,
    responseMediaType: 'text/css',
    responses: { 200: textOf('Swagger UI\'s style sheet.') },
  },
}, SERVICE);

const documents = new WeakMap<readonly OperationGroup[], string>();

/** The document for `groups` as JSON text, built once per list of groups. */
export function openApiJson(groups: readonly OperationGroup[]): string {
  let json = documents.get(groups);
  if (json === undefined) {
    json = JSON.stringify(buildOpenApiDocument(groups));
    documents.set(groups, json);
  }
  return json;
}

/** An answer of media type `type` that a browser must not sniff as another. */
const page = (type: string, body: string, headers: Record<string, string> = {}): Page => text(type, body, headers);

/** The service's routes as an area, serving the document of `groups` (which must include serviceRoutes). */
export function serviceArea(groups: readonly OperationGroup[]): Area {
  return defineArea({
    name: 'service',
    routes: serviceRoutes,
    handlers: (router) => {
      router.on('GET /healthz', () => ({ status: 200, body: { status: 'ok' } }));
      router.on('GET /openapi.json', () => page('application/json', openApiJson(groups), { 'Cache-Control': 'no-cache' }));
      // The viewer's files (Swagger UI: 1.9 MB of text) load when the page is first asked for, not at every start.
      router.on('GET /docs', async () => {
        const { DOCS_CSP, DOCS_HTML } = await import('./viewer/page.ts');
        return page('text/html', DOCS_HTML, { 'Content-Security-Policy': DOCS_CSP, 'Cache-Control': 'no-cache' });
      });
      router.on('GET /docs/viewer.js', async () => page('text/javascript', (await import('./viewer/page.ts')).VIEWER_JS, { 'Cache-Control': 'public, max-age=3600' }));
      router.on('GET /docs/viewer.css', async () => page('text/css', (await import('./viewer/page.ts')).VIEWER_CSS, { 'Cache-Control': 'public, max-age=3600' }));
    },
  });
}
