// Benchmark: a deep page costs what the first does. Seeds a large database, then times the first
// page and a page near the end of /users, /events (with and without a filter) and /resources over HTTP.
// Resources are fewer (ROWS / 10) and each one's page row carries its ancestors, descendants and
// access levels, so their pages cost more per row.
// Run: npm run bench   (not part of npm test: timings belong here, not in tests)
//
// Targets: a deep page's median within 1.5× of the first page's; every median under 50 ms for
// page_size=200 on the project's 2-core machines.
import * as v from 'valibot';
import { createResource } from '../../src/modules/resources/service.ts';
import { CreateResourceBody } from '../../src/modules/resources/schemas.ts';
import { startTestApp } from '../helpers/app.ts';
import { createApp } from '../helpers/fixtures.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

async function median(run: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const app = await startTestApp();
const { users, events } = app.ctx.stores;
const actor = { userId: app.adminUserId, name: 'Bench', email: 'bench@example.com', tokenLabel: 'bench', tokenPreview: '****', ip: null };
console.log(`seeding ${ROWS} users and ${ROWS} events…`);
app.ctx.db.transaction(() => {
  for (let i = 0; i < ROWS; i++) {
    const user = users.create({ email: `u${i}@example.com`, full_name: `User ${i}`, first_name: 'User', last_name: String(i), position: '', manager_id: null }, app.clock.now());
    events.record(actor, i % 10 === 0 ? 'USERS_UPDATED' : 'USERS_CREATED', [{ sub_event_type: 'USERS_CREATED', user_id: user.user_id }]);
  }
})();

const RESOURCES = ROWS / 10;
const { app_id } = await createApp(app.api);
console.log(`seeding ${RESOURCES} resources…`);
app.ctx.db.transaction(() => {
  for (let i = 0; i < RESOURCES; i++) {
    createResource(app.ctx, actor, v.parse(CreateResourceBody, { name: `resource ${i}`, resource_type: 'CUSTOM', app_id }));
  }
})();

async function pageAt(path: string, query: Record<string, string>, skipRows: number): Promise<string | undefined> {
  // Walk to the deep page once with the largest pages; the walk itself is not timed.
  let cursor: string | undefined;
  for (let seen = 0; seen < skipRows; seen += 1000) {
    cursor = (await app.api.get(path, { ...query, page_size: 1000, cursor })).body.next ?? undefined;
  }
  return cursor;
}

let failed = false;
const lists = [
  ['/users', {}, ROWS],
  ['/events', {}, ROWS],
  ['/events', { event_type_filter: 'USERS_UPDATED' }, ROWS / 10],
  ['/resources', {}, RESOURCES],
  // A case-insensitive name filter folds every candidate row's name ("resource 9…": 1111 rows match).
  ['/resources', { resource_name: 'RESOURCE 9' }, 1111],
] as const;
for (const [path, query, rows] of lists) {
  const deepCursor = await pageAt(path, query, rows - 1000);
  const first = await median(async () => void (await app.api.get(path, { ...query, page_size: 200 })));
  const deep = await median(async () => void (await app.api.get(path, { ...query, page_size: 200, cursor: deepCursor })));
  const ratio = deep / first;
  const ok = ratio <= 1.5 && first < 50 && deep < 50;
  failed ||= !ok;
  console.log(`${path} ${JSON.stringify(query)}: first page ${first.toFixed(2)} ms, deep page ${deep.toFixed(2)} ms, ratio ${ratio.toFixed(2)} ${ok ? 'ok' : 'MISSED TARGET'}`);
}
await app.close();
process.exitCode = failed ? 1 : 0;
