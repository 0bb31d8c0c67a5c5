// Serves the API document (GET /openapi.json) and the page that renders it (GET /docs), without a
// token, and documents the routes outside /v1 (these and the health check).
import type { ServerResponse } from 'node:http';
import type { Polka } from 'polka';
import { addPlainRoute, type RouteTable } from '../http/router.ts';
import type { GatehouseRequest } from '../http/types.ts';
import { buildOpenApiDocument } from './document.ts';
import { defineOperations, type OperationGroup } from './operations.ts';
import * as v from 'valibot';
import { component, described } from './responses.ts';
import { DOCS_CSP, DOCS_HTML, VIEWER_CSS, VIEWER_JS } from './viewer/page.ts';

const Health = component('Health', described(v.object({ status: v.picklist(['ok']) }), 'The service is up and answering.'));

/** What /openapi.json answers: the document itself, of which the client may rely on these two fields. */
const OpenApiDocument = described(v.objectWithRest({ openapi: v.string(), paths: v.record(v.string(), v.unknown()) }, v.unknown()), 'An OpenAPI 3.1 document.');

const text = (description: string) => described(v.string(), description);

export const serviceOperations = defineOperations('service', {
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
    responses: { 200: text('An HTML page.') },
  },
  'GET /docs/viewer.js': {
    summary: 'The /docs page\'s script',
    extension: true,
    public: true,
    responseMediaType: 'text/javascript',
    responses: { 200: text('Swagger UI\'s bundle and the lines that start it.') },
  },
  'GET /docs/viewer.css': {
    summary: 'The /docs page\'s style sheet',
    extension: true,
    public: true,
    responseMediaType: 'text/css',
    responses: { 200: text('Swagger UI\'s style sheet.') },
  },
});

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

function sendText(res: ServerResponse, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(200, {
    ...headers,
    'Content-Type': `${type}; charset=utf-8`,
    'Content-Length': Buffer.byteLength(body),
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}

/** Registers GET /openapi.json, /docs and the page's two files. `groups` must include serviceOperations. */
export function registerOpenApiRoutes(app: Polka<GatehouseRequest>, table: RouteTable, groups: readonly OperationGroup[]): void {
  addPlainRoute(app, table, '/openapi.json', (_req, res) => {
    const json = openApiJson(groups);
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json), 'Cache-Control': 'no-cache' });
    res.end(json);
  });
  addPlainRoute(app, table, '/docs', (_req, res) => sendText(res, 'text/html', DOCS_HTML, { 'Content-Security-Policy': DOCS_CSP, 'Cache-Control': 'no-cache' }));
  addPlainRoute(app, table, '/docs/viewer.js', (_req, res) => sendText(res, 'text/javascript', VIEWER_JS, { 'Cache-Control': 'public, max-age=3600' }));
  addPlainRoute(app, table, '/docs/viewer.css', (_req, res) => sendText(res, 'text/css', VIEWER_CSS, { 'Cache-Control': 'public, max-age=3600' }));
}
