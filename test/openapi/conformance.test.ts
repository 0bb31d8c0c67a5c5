// Gatehouse's API document against the reference (opal-openapi.yaml in the reference directory beside the
// repository): every reference operation Gatehouse serves must agree on the wire, except for the
// documented deviations (src/openapi/deviations.ts), which docs/openapi.md must show as they are.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { API_OPERATIONS } from '../../src/app.ts';
import { buildOpenApiDocument } from '../../src/openapi/document.ts';
import { covers, DEVIATIONS, renderDeviations } from '../../src/openapi/deviations.ts';
import { compareOperations, SchemaReader } from './compare.ts';
import { REFERENCE_DIR } from '../helpers/reference.ts';
import { GROUP_TYPES } from '../../src/modules/groups/kinds.ts';
import { RESOURCE_TYPES } from '../../src/modules/resources/kinds.ts';

type Json = Record<string, any>;

const REFERENCE = `${REFERENCE_DIR}opal-openapi.yaml`;
const DOCS = fileURLToPath(new URL('../../docs/openapi.md', import.meta.url));
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
const skip = existsSync(REFERENCE) ? false : `no reference document at ${REFERENCE} (it sits beside the repository in CI); nothing to compare with`;

describe('conformance with the reference API document', { skip }, () => {
  const load = () => {
    const reference = parseYaml(readFileSync(REFERENCE, 'utf8')) as Json;
    const ours = buildOpenApiDocument(API_OPERATIONS) as Json;
    const refOps = new Map<string, Json>();
    for (const [path, item] of Object.entries(reference.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) if (METHODS.has(method)) refOps.set(`${method.toUpperCase()} /v1${path}`, op);
    }
    const ourOps = new Map<string, Json>();
    for (const [path, item] of Object.entries(ours.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) ourOps.set(`${method.toUpperCase()} ${path}`, op);
    }
    return { reference, ours, refOps, ourOps };
  };

  // The closed enumerations the code validates with are the reference's, value for value (its odd casings included).
  it('takes resource_type and group_type from the reference enumerations exactly', () => {
    const { reference } = load();
    assert.deepEqual([...RESOURCE_TYPES], reference.components.schemas.ResourceTypeEnum.enum);
    assert.deepEqual([...GROUP_TYPES], reference.components.schemas.GroupTypeEnum.enum);
  });

  it('marks exactly the operations the reference lacks as extensions', () => {
    const { refOps, ourOps } = load();
    const wrong: string[] = [];
    for (const [key, op] of ourOps) {
      const extension = op['x-gatehouse-extension'] === true;
      if (extension && refOps.has(key)) wrong.push(`${key} is marked extension: true but the reference has it`);
      if (!extension && !refOps.has(key)) wrong.push(`${key} is not in the reference: mark it extension: true`);
    }
    assert.deepEqual(wrong, []);
  });

  it('agrees with every reference operation it serves, but for the documented deviations', () => {
    const { reference, ours, refOps, ourOps } = load();
    const ref = new SchemaReader(reference);
    const mine = new SchemaReader(ours);
    const unexplained: string[] = [];
    const used = new Set<number>();
    let compared = 0;
    for (const [key, refOp] of refOps) {
      const ourOp = ourOps.get(key);
      if (!ourOp) continue;
      compared++;
      for (const difference of compareOperations(ref, refOp, mine, ourOp)) {
        const index = DEVIATIONS.findIndex((d) => covers(d, key, difference.where, difference.what));
        if (index === -1) unexplained.push(`${key} ${difference.where}: ${difference.what}`);
        else used.add(index);
      }
    }
    assert.ok(compared > 40, `only ${compared} operations compared`);
    assert.deepEqual(unexplained, [], 'differences from the reference that src/openapi/deviations.ts does not explain');
    const stale = DEVIATIONS.filter((_, i) => !used.has(i)).map((d) => `${d.where} (${d.operations === '*' ? 'any' : d.operations.join(', ')})`);
    assert.deepEqual(stale, [], 'deviations that no longer occur: remove them from src/openapi/deviations.ts');
  });

  it('shows the deviations in docs/openapi.md as they are listed', () => {
    const begin = '<!-- deviations:begin (generated from src/openapi/deviations.ts by test/openapi/conformance.test.ts) -->';
    const end = '<!-- deviations:end -->';
    const docs = readFileSync(DOCS, 'utf8');
    const start = docs.indexOf(begin);
    const stop = docs.indexOf(end);
    assert.ok(start !== -1 && stop > start, `docs/openapi.md needs the markers ${begin} … ${end}`);
    const expected = `${begin}\n${renderDeviations()}\n${end}`;
    const actual = docs.slice(start, stop + end.length);
    if (actual !== expected && process.env.UPDATE_DOCS === '1') {
      writeFileSync(DOCS, docs.slice(0, start) + expected + docs.slice(stop + end.length));
      return;
    }
    assert.equal(actual, expected, 'docs/openapi.md shows an old list of deviations: run `UPDATE_DOCS=1 node test/run.mjs conformance`');
  });
});
