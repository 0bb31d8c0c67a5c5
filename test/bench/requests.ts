// Benchmark: GET /v1/requests pages, as an admin (every request) and as a member, who reads only the
// requests they take part in (requester, target, reviewer, delegate), filtered in SQL. Seeds REQUESTS
// requests (one item, one stage, one reviewer each) straight through the request store, spread over
// 1,000 requesters and 50 reviewers; the member is one of each.
// Run: node --import tsx --import ./src/dev/register-sql.mjs test/bench/requests.ts
// Reported, no target: each answered request carries its items, stages and reviewers.
import { startTestApp } from '../helpers/app.ts';
import type { ApiClient } from '../helpers/client.ts';
import { createToken, createUser } from '../helpers/fixtures.ts';
import { medianMs } from './timing.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);

const median = (run: () => Promise<void>) => medianMs(RUNS, run);

const app = await startTestApp();
const { users, requests } = app.ctx.stores;
const member = await createUser(app.api);
const memberApi = app.api.as((await createToken(app.api, { user_id: member.user_id })).secret);
const people = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => users.create({ email: `${prefix}${i}@example.com`, full_name: `${prefix} ${i}`, first_name: prefix, last_name: String(i), position: '', manager_id: null }, app.clock.now()).user_id);
console.log(`seeding ${REQUESTS} requests…`);
app.ctx.db.transaction(() => {
  const requesters = [member.user_id, ...people(999, 'requester')];
  const reviewers = [member.user_id, ...people(49, 'reviewer')];
  for (let i = 0; i < REQUESTS; i++) {
    const requester = requesters[(i * 7919) % requesters.length]!;
    const id = requests.create({ requester_id: requester, target_user_id: requester, target_group_id: null, reason: 'bench', duration_minutes: 60, support_ticket: null, custom_metadata: '[]' }, app.clock.now());
    requests.addItem({ request_id: id, position: 0, item_type: 'resource', item_id: app.adminUserId, item_name: `resource ${i % 1000}`, remote_id: null, remote_name: null,
      access_level_remote_id: '', access_level_name: '', configuration_priority: 0, matched_group_id: null, auto_approved: 0, stage_count: 1, current_stage: 1 });
    requests.addStage({ request_id: id, item_position: 0, stage_index: 1, stage: 1, operator: 'OR', slots: '["owner:bench"]' });
    requests.addReviewer({ request_id: id, item_position: 0, stage_index: 1, slot: 'owner:bench', user_id: reviewers[(i * 104729) % reviewers.length]!, reason: 'bench' });
  }
})();

async function pages(api: ApiClient, who: string) {
  const all: string[] = [];
  let cursor: string | undefined;
  do {
    const res = await api.get('/requests', { page_size: 1000, cursor });
    all.push(...res.body.requests.map((r: { id: string }) => r.id));
    cursor = res.body.cursor ?? undefined;
  } while (cursor);
  // The cursor two hundred rows before the end: the deepest full page.
  let deep: string | undefined;
  for (let seen = 0, c: string | undefined; seen < all.length - 200; seen += 200) {
    c = (await api.get('/requests', { page_size: 200, cursor: c })).body.cursor ?? undefined;
    deep = c;
  }
  const first = await median(async () => void (await api.get('/requests', { page_size: 200 })));
  const last = await median(async () => void (await api.get('/requests', { page_size: 200, cursor: deep })));
  console.log(`GET /v1/requests as ${who} (${all.length} readable): first page ${first.toFixed(1)} ms, deep page ${last.toFixed(1)} ms`);
}
await pages(memberApi, 'a member');
await pages(app.api, 'an admin');
await app.close();
