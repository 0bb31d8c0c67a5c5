// Benchmark: a deep page costs what the first does. Seeds a large database, then times the first
// page and a page near the end of /users, /events (with and without a filter) and /resources over HTTP,
// the last also as a member, whose pages are filtered by visibility in SQL.
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
import type { ApiClient } from '../helpers/client.ts';
import { createApp, createGroup, createToken, createUser } from '../helpers/fixtures.ts';
import { medianMs } from './timing.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

const median = (run: () => Promise<void>) => medianMs(RUNS, run);

const app = await startTestApp();
const { users, events, resources, visibility } = app.ctx.stores;
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

// A member (not an admin) reads lists filtered by visibility: every 10th resource is LIMITED to a group
// the member is not in, and the member belongs to a few groups (their memberships feed the filter).
const memberUser = await createUser(app.api);
const memberApi = app.api.as((await createToken(app.api, { user_id: memberUser.user_id })).secret);
const hidden = (await createGroup(app.api, { app_id })).group_id;
for (let i = 0; i < 5; i++) {
  const group = await createGroup(app.api, { app_id });
  await app.api.post(`/groups/${group.group_id}/users/${memberUser.user_id}`, { duration_minutes: 0 });
}
app.ctx.db.transaction(() => {
  const ids = [...resources.list({}, null, RESOURCES + 1)].map((row) => row.id);
  ids.forEach((id, i) => { if (i % 10 === 0) visibility.set('resource', id, { visibility: 'LIMITED', visibility_group_ids: [hidden] }); });
})();
const MEMBER_RESOURCES = RESOURCES - RESOURCES / 10;

async function pageAt(api: ApiClient, path: string, query: Record<string, string>, skipRows: number): Promise<string | undefined> {
  // Walk to the deep page once with the largest pages; the walk itself is not timed.
  let cursor: string | undefined;
  for (let seen = 0; seen < skipRows; seen += 1000) {
    cursor = (await api.get(path, { ...query, page_size: 1000, cursor })).body.next ?? undefined;
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
  ['/resources', {}, MEMBER_RESOURCES, 'member'],
] as const;
for (const [path, query, rows, as] of lists) {
  const api = as === 'member' ? memberApi : app.api;
  const deepCursor = await pageAt(api, path, query, rows - 1000);
  const first = await median(async () => void (await api.get(path, { ...query, page_size: 200 })));
  const deep = await median(async () => void (await api.get(path, { ...query, page_size: 200, cursor: deepCursor })));
  const ratio = deep / first;
  const ok = ratio <= 1.5 && first < 50 && deep < 50;
  failed ||= !ok;
  console.log(`${path} ${JSON.stringify(query)}${as ? ` as a ${as}` : ''}: first page ${first.toFixed(2)} ms, deep page ${deep.toFixed(2)} ms, ratio ${ratio.toFixed(2)} ${ok ? 'ok' : 'MISSED TARGET'}`);
}
await app.close();
process.exitCode = failed ? 1 : 0;
