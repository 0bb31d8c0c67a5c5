// The HTTP benchmark's database: a migrated file filled through a documented bulk path. Catalogue rows
// and access edges go in by direct SQL into the migrated schema (a million edges through HTTP would take
// the whole time budget); tokens, audit events and requests go through the stores, so their hashes,
// chain and snapshots are what the service itself writes.
//
// Shape (issue 23): 10,000 users, 100,000 resources in trees (20,000 roots, each with two children and
// two grandchildren; a tenth LIMITED to a group), 2,000 groups nested up to four deep, 1,000,000 access
// edges with a fifth expiring within a month, 50,000 requests,
// 500,000 audit events naming users, groups and resources. A fixed seed: every run builds the same data.
import { createHash, randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadConfig } from '../../src/config.ts';
import { AREAS } from '../../src/app.ts';
import { createContext } from '../../src/context.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase, type Db } from '../../src/db/open.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createLogger } from '../../src/lib/log.ts';
import { bootstrapAdmin, issueToken } from '../../src/modules/tokens/service.ts';
import { seededRandom } from '../helpers/random.ts';

export const SHAPE = {
  users: 10_000,
  groups: 2_000,
  resources: 100_000,
  edges: 1_000_000,
  requests: 50_000,
  events: 500_000,
};
const LAYERS = 5; // layer 0 nests in layer 1, …, layer 3 in layer 4: chains four deep
const TREE = 5; // a root, two children, two grandchildren
const GROUPS_PER_USER = 8;
const RESOURCES_PER_GROUP = 50;
const WRITE_GROUPS_FROM = 1000;
const WRITE_GROUPS = 100;

/**
 * Admins who read the big pages: Gatehouse runs at most MAX_READS_PER_CALLER (8) heavy reads per caller at
 * once and answers the rest 429 (src/reads/pool.ts), so the page scenarios spread their connections over
 * these (8 of them: up to 64 connections).
 */
const PAGE_READERS = 8;

export interface Seeded {
  file: string;
  adminToken: string;
  /** FULL_ACCESS tokens of PAGE_READERS other admins. */
  pageReaderTokens: string[];
  memberToken: string;
  memberUserId: string;
  /** Resources the member sees (GLOBAL, or LIMITED to a group the member is in), for both readers. */
  readableResourceIds: string[];
  /** Users in nested groups (GET /v1/groups/users/{user_id}). */
  nestedUserIds: string[];
  /** Objects named by many events (GET /v1/events?object_filter=). */
  eventObjectIds: string[];
  /** Memberships that exist, as `{group_id}/users/{user_id}` (PUT /v1/groups/{group_id}/users/{user_id}). */
  memberships: string[];
  /** GLOBAL, requestable resources nobody holds (POST /v1/requests). */
  requestableResourceIds: string[];
}

/**
 * Inserts access edges straight into the schema (INSERT OR IGNORE: a repeated pair is skipped), all
 * at level '' with the given expiry, counting the rows written. The benches seed their graphs with it.
 */
export function edgeWriter(db: Db, stamp: string) {
  const edge = (table: string, from: string, to: string) =>
    db.prepare(`INSERT OR IGNORE INTO ${table} (${from}, ${to}, access_level_remote_id, access_level_name, expiration_date, created_at, updated_at) VALUES (?, ?, '', '', ?, ?, ?)`);
  let written = 0;
  return {
    nest: edge('group_groups', 'group_id', 'containing_group_id'),
    member: edge('group_users', 'group_id', 'user_id'),
    grant: edge('group_resources', 'group_id', 'resource_id'),
    direct: edge('resource_users', 'resource_id', 'user_id'),
    add(statement: ReturnType<typeof edge>, a: string, b: string, expiry: string | null): void {
      written += statement.run(a, b, expiry, stamp, stamp).changes;
    },
    written: () => written,
  };
}

export function seedDatabase(file: string, log: (line: string) => void = () => {}): Seeded {
  // A fixed seed: the same database on every run, so figures compare across commits.
  const { random, int } = seededRandom(20261126);

  const clock = systemClock;
  const db = openDatabase(file);
  migrate(db, clock.now());
  // Seeding is a bulk load: no journal and no fsync until it is done (a failed seed is simply redone),
  // then the file is switched to WAL as the service runs it.
  db.pragma('journal_mode = DELETE');
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  const config = loadConfig({ GATEHOUSE_LOG_LEVEL: 'silent' }, { db: file });
  const ctx = createContext({ db, clock, config, log: createLogger('silent') }, AREAS);
  const now = clock.now().getTime();
  const stamp = new Date(now).toISOString();
  const day = 86_400_000;
  // A fifth of edges expire within the coming month. None has expired yet: the service's sweep would
  // spend the first minutes of every run deleting them (and recording each), which is not what is measured.
  const expiry = (): string | null => {
    if (random() >= 0.2) return null;
    return new Date(now + (1 + int(30)) * day).toISOString();
  };

  const adminToken = bootstrapAdmin(ctx, undefined)!.secret;
  const adminUserId = ctx.stores.users.getByEmail('admin@gatehouse.local')!.user_id;
  const ownerId = randomUUID();
  const appId = randomUUID();
  const userIds = Array.from({ length: SHAPE.users }, () => randomUUID());
  const groupIds = Array.from({ length: SHAPE.groups }, () => randomUUID());
  const resourceIds = Array.from({ length: SHAPE.resources }, () => randomUUID());
  const perLayer = SHAPE.groups / LAYERS;
  const inLayer = (layer: number) => layer * perLayer + int(perLayer);
  // The member: user 0, in department group 0 (layer 0, so nested four deep) and GROUPS_PER_USER more.
  const memberUserId = userIds[0]!;
  const hiddenGroup = groupIds[SHAPE.groups - 1]!; // the member is never put in it directly
  const memberGroup = groupIds[0]!;

  const started = Date.now();
  const defaultCache = db.pragma('cache_size', { simple: true });
  db.pragma('cache_size = -262144');
  const edges = edgeWriter(db, stamp);
  const readable: string[] = [];
  db.transaction(() => {
    db.prepare(`INSERT INTO owners (id, name, created_at, updated_at) VALUES (?, 'bench', ?, ?)`).run(ownerId, stamp, stamp);
    db.prepare(`INSERT INTO owner_users (owner_id, user_id, position) VALUES (?, ?, 0)`).run(ownerId, adminUserId);
    db.prepare(`INSERT INTO apps (id, name, app_type, admin_owner_id, created_at, updated_at) VALUES (?, 'bench', 'CUSTOM', ?, ?, ?)`).run(appId, ownerId, stamp, stamp);
    const user = db.prepare('INSERT INTO users (id, email, full_name, first_name, last_name, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    userIds.forEach((id, i) => user.run(id, `bench${i}@example.com`, `Bench User ${i}`, 'Bench', String(i), stamp));
    const group = db.prepare(`INSERT INTO groups (id, app_id, name, admin_owner_id, group_type, created_at, updated_at) VALUES (?, ?, ?, ?, 'OPAL_GROUP', ?, ?)`);
    groupIds.forEach((id, i) => group.run(id, appId, `bench group ${i}`, ownerId, stamp, stamp));
    const resource = db.prepare(
      `INSERT INTO resources (id, app_id, name, admin_owner_id, resource_type, parent_resource_id, visibility, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'CUSTOM', ?, ?, ?, ?)`,
    );
    const limitTo = db.prepare('INSERT INTO resource_visibility_groups (resource_id, group_id, position) VALUES (?, ?, 0)');
    const level = db.prepare('INSERT INTO resource_access_levels (resource_id, remote_id, name) VALUES (?, ?, ?)');
    resourceIds.forEach((id, i) => {
      const inTree = i % TREE;
      const root = i - inTree;
      // 0 root; 1, 2 children of the root; 3 a child of 1; 4 a child of 2.
      const parent = inTree === 0 ? null : inTree <= 2 ? resourceIds[root]! : resourceIds[root + inTree - 2]!;
      const limited = i % 10 === 7;
      resource.run(id, appId, `bench resource ${i}`, ownerId, parent, limited ? 'LIMITED' : 'GLOBAL', stamp, stamp);
      if (limited) limitTo.run(id, i % 20 === 7 ? memberGroup : hiddenGroup);
      if (i % 4 === 0) {
        level.run(id, 'read', 'Read');
        level.run(id, 'write', 'Write');
      }
      if (!limited || i % 20 === 7) readable.push(id);
    });

    const { nest, member, grant, direct, add } = edges;
    // Every group below the top layer sits in one or two groups of the next layer up.
    for (let g = 0; g < SHAPE.groups - 1; g++) {
      const layer = Math.floor(g / perLayer);
      if (layer === LAYERS - 1) continue;
      for (let k = 1 + int(2); k > 0; k--) add(nest, groupIds[g]!, groupIds[inLayer(layer + 1)]!, g < 50 ? null : expiry());
    }
    // Everyone is in a department (the first 50 groups), and in a few groups anywhere (never the hidden one).
    userIds.forEach((id, u) => {
      add(member, groupIds[u % 50]!, id, null);
      for (let k = 0; k < GROUPS_PER_USER; k++) add(member, groupIds[int(SHAPE.groups - 1)]!, id, expiry());
    });
    for (let g = 0; g < SHAPE.groups; g++) {
      for (let k = 0; k < RESOURCES_PER_GROUP; k++) add(grant, groupIds[g]!, resourceIds[int(SHAPE.resources)]!, expiry());
    }
    // Memberships for the PUT scenario to change: user u in write group u % 100 (a PUT changes an edge that exists).
    userIds.forEach((id, u) => add(member, groupIds[WRITE_GROUPS_FROM + (u % WRITE_GROUPS)]!, id, null));
    // The rest are direct grants, on every resource but the last tenth (kept free for requests).
    while (edges.written() < SHAPE.edges) add(direct, resourceIds[int(SHAPE.resources * 0.9)]!, userIds[1 + int(SHAPE.users - 1)]!, expiry());
  })();
  log(`seeded users, groups, resources and ${edges.written()} edges in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // Tokens through the service (hashed secrets, recorded events), for the admin and the member.
  const adminActor = { userId: adminUserId, name: 'Gatehouse Admin', email: 'admin@gatehouse.local', tokenLabel: 'bench', tokenPreview: '****', ip: null };
  const memberToken = issueToken(ctx, adminActor, { userId: memberUserId, label: 'bench member', accessLevel: 'FULL_ACCESS' }).secret;
  const addAdmin = db.prepare(`INSERT INTO users (id, email, full_name, first_name, last_name, organization_role, created_at) VALUES (?, ?, ?, 'Bench', ?, 'ADMIN', ?)`);
  const pageReaderTokens = Array.from({ length: PAGE_READERS }, (_, i) => {
    const userId = randomUUID();
    addAdmin.run(userId, `bench-admin${i}@example.com`, `Bench Admin ${i}`, `Admin ${i}`, stamp);
    return issueToken(ctx, adminActor, { userId, label: `bench page reader ${i}`, accessLevel: 'FULL_ACCESS' }).secret;
  });

  // Requests through the request store (one item, one stage, one reviewer each).
  const { requests, events } = ctx.stores;
  const requestsStarted = Date.now();
  db.transaction(() => {
    for (let i = 0; i < SHAPE.requests; i++) {
      const requester = userIds[1 + ((i * 7919) % (SHAPE.users - 1))]!;
      const resourceId = resourceIds[(i * 104729) % SHAPE.resources]!;
      const id = requests.create({ requester_id: requester, target_user_id: requester, target_group_id: null, reason: 'bench', duration_minutes: 60, support_ticket: null, custom_metadata: '[]' }, clock.now());
      requests.addItem({ request_id: id, position: 0, item_type: 'resource', item_id: resourceId, item_name: 'bench resource', remote_id: null, remote_name: null,
        access_level_remote_id: '', access_level_name: '', configuration_priority: 0, matched_group_id: null, auto_approved: 0, stage_count: 1, current_stage: 1 });
      requests.addStage({ request_id: id, item_position: 0, stage_index: 1, stage: 1, operator: 'OR', slots: '["owner:bench"]' });
      requests.addReviewer({ request_id: id, item_position: 0, stage_index: 1, slot: 'owner:bench', user_id: adminUserId, reason: 'bench' });
    }
  })();
  log(`seeded ${SHAPE.requests} requests in ${((Date.now() - requestsStarted) / 1000).toFixed(1)} s`);

  // Audit events through the real record() (the hash chain), naming users, groups and resources.
  const eventsStarted = Date.now();
  const eventObjectIds = [groupIds[7]!, resourceIds[35]!, userIds[42]!];
  const recordBatch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const objectId = i % 50 === 0 ? eventObjectIds[i % 3]! : undefined;
      if (i % 3 === 0) events.record(adminActor, 'GROUP_USERS_ADDED', [{ sub_event_type: 'GROUP_USERS_ADDED', group_id: objectId ?? groupIds[int(SHAPE.groups)]!, user_id: userIds[int(SHAPE.users)]! }]);
      else if (i % 3 === 1) events.record(adminActor, 'RESOURCE_USERS_ADDED', [{ sub_event_type: 'RESOURCE_USERS_ADDED', resource_id: objectId ?? resourceIds[int(SHAPE.resources)]!, user_id: userIds[int(SHAPE.users)]! }]);
      else events.record(adminActor, 'USERS_UPDATED', [{ sub_event_type: 'USERS_UPDATED', user_id: objectId ?? userIds[int(SHAPE.users)]! }]);
    }
  });
  const total = SHAPE.events;
  for (let done = 0; done < total; done += 10_000) recordBatch.immediate(done, Math.min(total, done + 10_000));
  log(`seeded ${total} audit events in ${((Date.now() - eventsStarted) / 1000).toFixed(1)} s`);
  db.pragma(`cache_size = ${Number(defaultCache)}`);
  db.pragma('optimize');
  db.pragma('journal_mode = WAL');
  db.close();

  // Users 1.. are in nested departments; the last 2,000 resources are held by no one directly.
  const lastTenth = resourceIds.slice(SHAPE.resources * 0.9).filter((_, i) => (SHAPE.resources * 0.9 + i) % 10 !== 7);
  return {
    file,
    adminToken,
    pageReaderTokens,
    memberToken,
    memberUserId,
    readableResourceIds: readable.filter((_, i) => i % 90 === 0),
    nestedUserIds: userIds.slice(1, 201),
    eventObjectIds,
    memberships: userIds.map((id, u) => `${groupIds[WRITE_GROUPS_FROM + (u % WRITE_GROUPS)]}/users/${id}`),
    requestableResourceIds: lastTenth,
  };
}

/**
 * Copies the benches' seeded database to `dbFile` and answers what it holds. The seeded file is kept (by
 * default in node_modules/.cache, keyed by seed.ts and the migrations) and copied for each run: seeding
 * takes minutes, a copy seconds. BENCH_SEEDED=<dir> keeps it there instead; BENCH_SEEDED=none seeds
 * afresh into `dbFile`.
 */
export function seededCopy(dbFile: string, log: (line: string) => void, root: string): Seeded {
  const seedKey = createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url))).update(readdirSync(join(root, 'sql')).join()).digest('hex').slice(0, 12);
  const keep = process.env.BENCH_SEEDED === 'none' ? undefined : (process.env.BENCH_SEEDED ?? join(root, 'node_modules/.cache/gatehouse-bench', seedKey));
  if (keep && existsSync(join(keep, 'seeded.json'))) {
    console.log(`reusing the seeded database in ${keep}`);
    const seeded = JSON.parse(readFileSync(join(keep, 'seeded.json'), 'utf8')) as Seeded;
    copyFileSync(seeded.file, dbFile);
    return seeded;
  }
  console.log('seeding (seed.ts: direct SQL into a migrated file for the catalogue and edges, the stores for tokens, requests and events)…');
  const started = Date.now();
  const file = keep ? join(keep, 'seed.db') : dbFile;
  if (keep) mkdirSync(keep, { recursive: true });
  const seeded = seedDatabase(file, log);
  if (keep) {
    writeFileSync(join(keep, 'seeded.json'), JSON.stringify(seeded));
    copyFileSync(file, dbFile);
  }
  console.log(`  seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return seeded;
}

// Alone: node --import tsx --import ./src/dev/register-sql.mjs test/bench/seed.ts <dir> — seeds <dir>/seed.db
// and writes <dir>/seeded.json, which BENCH_SEEDED=<dir> npm run bench then reuses.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2] ?? '.';
  mkdirSync(dir, { recursive: true });
  const seeded = seedDatabase(join(dir, 'seed.db'), (line) => console.log(line));
  writeFileSync(join(dir, 'seeded.json'), JSON.stringify(seeded));
}
