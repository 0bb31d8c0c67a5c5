// The console is typed from Gatehouse's own API document: its types file is what openapi-typescript makes
// of the document the server serves, and no console source escapes the types with `any`.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import ts from 'typescript';
import { API_OPERATIONS } from '../../src/app.ts';
import { CONSOLE_TYPES, consoleTypes } from '../../src/dev/console-types.ts';
import { buildOpenApiDocument } from '../../src/openapi/document.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const CONSOLE = join(import.meta.dirname, '../../console');

/** The console's own sources (the generated types file aside). */
function consoleSources(dir = CONSOLE): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return consoleSources(path);
    return /\.tsx?$/.test(entry.name) && path !== CONSOLE_TYPES ? [path] : [];
  });
}

/** Every `any` written as a type in `file`, as `file:line`. */
function anyTypes(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.AnyKeyword) found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the console\'s types', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it('are generated from the API document the server serves, as the type check used them', async () => {
    const served = await fetch(new URL('/openapi.json', app.url));
    assert.equal(served.status, 200);
    const document: unknown = await served.json();
    // The generator builds the document in process, as the server does for /openapi.json.
    assert.deepEqual(document, JSON.parse(JSON.stringify(buildOpenApiDocument(API_OPERATIONS))));
    const fromServed = await consoleTypes(document);
    assert.ok(fromServed.includes('"/v1/requests/{id}": {'), 'the types describe the API\'s paths');
    assert.ok(existsSync(CONSOLE_TYPES), 'console/api-types.ts is missing: run `npm run console:types` (npm test and npm run typecheck do)');
    assert.equal(readFileSync(CONSOLE_TYPES, 'utf8'), fromServed, 'console/api-types.ts is stale: run `npm run console:types`');
  });

  it('are never escaped with `any` in the console\'s sources', () => {
    const sources = consoleSources();
    assert.ok(sources.length >= 8, `only ${sources.length} console sources found`);
    assert.deepEqual(sources.flatMap(anyTypes), []);
  });

  it('find an `any` where one is written (the check above can fail)', () => {
    assert.equal(anyTypes(join(import.meta.dirname, '../../console/api.ts')).length, 0);
    const file = join(app.dir, 'sample.ts');
    ts.sys.writeFile(file, 'const a: any = 1;\nexport const b = a as any;\n');
    assert.deepEqual(anyTypes(file), [`${file}:1`, `${file}:2`]);
  });
});
