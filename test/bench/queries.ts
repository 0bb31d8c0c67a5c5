// Benchmark: POST /queries/run over a large catalogue — first and deep pages of common node filters.
// Run: node --import tsx --import ./src/dev/register-sql.mjs test/bench/queries.ts   (BENCH_RESOURCES, BENCH_RUNS)
//
// Targets: every median under 50 ms for first=200, except a name search, which reads every row of the
// kinds it may match (no index serves CONTAINS) and is reported for what it costs.
import * as v from 'valibot';
import { createResource } from '../../src/modules/resources/service.ts';
import { CreateResourceBody } from '../../src/modules/resources/schemas.ts';
import { startTestApp } from '../helpers/app.ts';
import { createApp, createTag } from '../helpers/fixtures.ts';
import { medianMs } from './timing.ts';

const RESOURCES = Number(process.env.BENCH_RESOURCES ?? 100_000);
const USERS = RESOURCES / 10;
const RUNS = Number(process.env.BENCH_RUNS ?? 20);

const median = (run: () => Promise<void>) => medianMs(RUNS, run);

const app = await startTestApp();
const { users, tags } = app.ctx.stores;
const actor = { userId: app.adminUserId, name: 'Bench', email: 'bench@example.com', tokenLabel: 'bench', tokenPreview: '****', ip: null };
const { app_id } = await createApp(app.api);
const prod = await createTag(app.api, { tag_key: 'env', tag_value: 'prod' });
console.log(`seeding ${USERS} users and ${RESOURCES} resources, 1 in 100 tagged env=prod, 1 in 10 OKTA_APP…`);
app.ctx.db.transaction(() => {
  for (let i = 0; i < USERS; i++) {
    users.create({ email: `u${i}@example.com`, full_name: `User ${i}`, first_name: 'User', last_name: String(i), position: '', manager_id: null }, app.clock.now());
  }
  for (let i = 0; i < RESOURCES; i++) {
    const type = i % 10 === 0 ? 'OKTA_APP' : 'CUSTOM';
    const resource = createResource(app.ctx, actor, v.parse(CreateResourceBody, { name: `resource ${i}`, resource_type: type, app_id }));
    if (i % 100 === 0) tags.attach('resource', prod.tag_id, resource.resource_id);
  }
})();

const cases: [string, Record<string, unknown>, boolean][] = [
  ['no filter (users first)', {}, true],
  ['entityTypes RESOURCE', { entityTypes: ['RESOURCE'] }, true],
  ['resources tagged env=prod, not OKTA_APP', { entityTypes: ['RESOURCE'], allOf: [{ entityTag: { key: 'env', value: 'prod' } }], not: { entityItemTypes: ['OKTA_APP'] } }, true],
  ['entityItemTypes OKTA_APP', { entityItemTypes: ['OKTA_APP'] }, true],
  ['name CONTAINS "resource 9" (reads every row)', { entityName: { stringMatchType: 'CONTAINS', string: 'resource 9' } }, false],
];
let failed = false;
for (const [label, nodeFilters, targeted] of cases) {
  const body = { type: 'NODE', query: { nodeFilters }, first: 200 };
  // The deep page: walk to near the end once with the largest pages; the walk is not timed.
  let after: string | undefined;
  for (;;) {
    const res = (await app.api.post('/queries/run', { ...body, first: 1000, ...(after && { after }) })).body;
    if (!res.pageInfo.hasNextPage) break;
    const next = res.pageInfo.endCursor as string;
    const peek = (await app.api.post('/queries/run', { ...body, first: 1000, after: next })).body;
    if (!peek.pageInfo.hasNextPage) break;
    after = next;
  }
  const first = await median(async () => void (await app.api.post('/queries/run', body)));
  const deep = await median(async () => void (await app.api.post('/queries/run', { ...body, ...(after && { after }) })));
  const ok = !targeted || (first < 50 && deep < 50);
  failed ||= !ok;
  console.log(`${label}: first page ${first.toFixed(2)} ms, deep page ${deep.toFixed(2)} ms ${targeted ? (ok ? 'ok' : 'MISSED TARGET') : '(reported)'}`);
}
await app.close();
process.exitCode = failed ? 1 : 0;
