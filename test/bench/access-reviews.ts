// Benchmark: starting a user access review (POST /v1/uar), whose snapshot is written while the
// review's transaction holds the write lock. Bulk-inserts a mid-sized organization straight into the
// SQLite file, then times a review over one app and over the whole catalogue, as medians over HTTP.
// Run: node --import tsx --import ./src/dev/register-sql.mjs test/bench/access-reviews.ts
// Not part of `npm run bench`: it reports how long a review holds other writers back, with no target.
import { randomUUID } from 'node:crypto';
import { startTestApp } from '../helpers/app.ts';
import { seededRandom } from '../helpers/random.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const USERS = 5_000;
const GROUPS = 200; // half nested in the other half
const RESOURCES = 2_000;
const APPS = 10;
const GROUPS_PER_USER = 2;
const RESOURCES_PER_GROUP = 20;
const DIRECT_PER_USER = 5;

const { int } = seededRandom(20261123);

const app = await startTestApp();
const db = app.ctx.db;
const stamp = app.clock.now().toISOString();
const ownerId = randomUUID();
const appIds = Array.from({ length: APPS }, () => randomUUID());
const userIds = Array.from({ length: USERS }, () => randomUUID());
const groupIds = Array.from({ length: GROUPS }, () => randomUUID());
const resourceIds = Array.from({ length: RESOURCES }, () => randomUUID());

db.transaction(() => {
  db.prepare(`INSERT INTO owners (id, name, created_at, updated_at) VALUES (?, 'uar bench', ?, ?)`).run(ownerId, stamp, stamp);
  const appRow = db.prepare(`INSERT INTO apps (id, name, app_type, admin_owner_id, created_at, updated_at) VALUES (?, ?, 'CUSTOM', ?, ?, ?)`);
  appIds.forEach((id, i) => appRow.run(id, `uar bench ${i}`, ownerId, stamp, stamp));
  const user = db.prepare('INSERT INTO users (id, email, full_name, first_name, last_name, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  userIds.forEach((id, i) => user.run(id, `u${i}@bench.example`, `User ${i}`, 'User', String(i), stamp));
  const group = db.prepare(`INSERT INTO groups (id, app_id, name, admin_owner_id, group_type, created_at, updated_at) VALUES (?, ?, ?, ?, 'OPAL_GROUP', ?, ?)`);
  groupIds.forEach((id, i) => group.run(id, appIds[i % APPS], `group ${i}`, ownerId, stamp, stamp));
  const resource = db.prepare(`INSERT INTO resources (id, app_id, name, admin_owner_id, resource_type, created_at, updated_at) VALUES (?, ?, ?, ?, 'CUSTOM', ?, ?)`);
  resourceIds.forEach((id, i) => resource.run(id, appIds[i % APPS], `resource ${i}`, ownerId, stamp, stamp));
  const edge = (table: string, from: string, to: string) =>
    db.prepare(`INSERT OR IGNORE INTO ${table} (${from}, ${to}, access_level_remote_id, access_level_name, expiration_date, created_at, updated_at) VALUES (?, ?, '', '', NULL, ?, ?)`);
  const nest = edge('group_groups', 'group_id', 'containing_group_id');
  const member = edge('group_users', 'group_id', 'user_id');
  const grant = edge('group_resources', 'group_id', 'resource_id');
  const direct = edge('resource_users', 'resource_id', 'user_id');
  for (let g = 0; g < GROUPS / 2; g++) nest.run(groupIds[g], groupIds[GROUPS / 2 + int(GROUPS / 2)], stamp, stamp);
  for (const u of userIds) {
    for (let i = 0; i < GROUPS_PER_USER; i++) member.run(groupIds[int(GROUPS / 2)], u, stamp, stamp);
    for (let i = 0; i < DIRECT_PER_USER; i++) direct.run(resourceIds[int(RESOURCES)], u, stamp, stamp);
  }
  for (const g of groupIds) for (let i = 0; i < RESOURCES_PER_GROUP; i++) grant.run(g, resourceIds[int(RESOURCES)], stamp, stamp);
})();

const body = { name: 'bench', reviewer_assignment_policy: 'MANUALLY', send_reviewer_assignment_notification: false, deadline: '2027-01-01T00:00:00Z', time_zone: 'UTC', self_review_allowed: false };
async function measure(label: string, scope: Record<string, unknown> | undefined) {
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    const res = await app.api.post('/uar', { ...body, ...(scope && { uar_scope: scope }) });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    const events = await app.api.get('/events', { object_filter: res.body.uar_id });
    rows = events.body.results[0].sub_events[0].snapshot_rows;
  }
  const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
  console.log(`${label}: ${rows} snapshot rows, median ${median.toFixed(0)} ms over ${RUNS} runs (${(median / Math.max(rows, 1) * 1000).toFixed(1)} µs a row)`);
}

console.log(`${USERS} users, ${GROUPS} groups, ${RESOURCES} resources in ${APPS} apps`);
await measure('one app', { apps: [appIds[0]] });
await measure('whole catalogue, 100 users selected', { users: userIds.slice(0, 100) });
await measure('whole catalogue', undefined);
await app.close();
