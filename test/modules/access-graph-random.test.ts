// Randomized test of the access graph (issue 7): a seeded random graph of users, groups nested up to
// four deep, access rules over user tags, resources and expiring edges is built through the HTTP API;
// then, at several instants of the manual clock, every access read is compared with a brute-force
// model of the agreed definition of effective access, written here without SQL or src/ imports.
// Re-run a failure with its seed: GATEHOUSE_TEST_SEED=<seed> node test/run.mjs access-graph-random
//
// The definition, as the model computes it: an edge is live at `now` when it has no expiry or
// expires after now. U holds X at level L when a live edge U→X at L exists (direct), or when U holds
// a group G — at any level, by any path: a direct membership, a rule's membership, or nesting — that
// has a live edge G→X at L (X a resource, or a group that contains G). A path expires at its earliest
// edge, a holding at its latest path; num_access_paths = direct (0/1) + distinct such groups G.
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import type { ApiResponse, Query } from '../helpers/client.ts';
import { createApp } from '../helpers/fixtures.ts';
// The one import from src/: the sweep is a function the test calls, as `serve` would on a timer.
import { tick } from '../../src/modules/access/sweep.ts';
import { seededRandom } from '../helpers/random.ts';

const SEED = Number(process.env.GATEHOUSE_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31));
const MINUTE = 60_000;
const NEVER = Number.POSITIVE_INFINITY;
/** Sized for about a minute on a loaded 2-core machine: about 2,000 edges over the run. */
const SIZE = { users: 50, groups: 26, layers: 5, rules: 4, resources: 70, userResource: 500, userGroup: 240, groupResource: 200, nestings: 48 };
/** Durations in minutes (0: indefinite); few distinct values, so many edges expire at the same instants. */
const DURATIONS = [0, 0, 0, 30, 60, 60, 90, 120, 240, 600];
const TAGS = ['dept=eng', 'dept=ops', 'dept=sales', 'site=lon', 'site=nyc', 'senior=yes', 'contractor=yes'];

/** mulberry32: small, fast, and the same sequence on every platform for a seed. */
const { random, int } = seededRandom(SEED);
const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
const chance = (p: number) => random() < p;

// ---- The model ----------------------------------------------------------------------------------

interface Level { remote: string; name: string }
interface User { id: string; label: string; email: string; fullName: string; tags: Set<string>; status: string }
interface Item { id: string; label: string; name: string; description: string; levels: Level[] }
/** `when`/`unless` as lists of clauses, each a list of 'key=value' selectors. */
interface Rule { status: 'ACTIVE' | 'PAUSED'; when: string[][]; unless: string[][]; members: Set<string> }
interface Group extends Item { layer: number; rule?: Rule }
interface Edge { from: string; to: string; level: string; exp: number }

/** One kind of edge, keyed like the service keys it: at most one row per (from, to, level). */
class Edges {
  readonly rows = new Map<string, Edge>();
  key = (from: string, to: string, level: string) => `${from} ${to} ${level}`;
  get = (from: string, to: string, level: string) => this.rows.get(this.key(from, to, level));
  set(edge: Edge): void {
    this.rows.set(this.key(edge.from, edge.to, edge.level), edge);
  }
  delete = (from: string, to: string, level: string) => this.rows.delete(this.key(from, to, level));
  live = (now: number) => [...this.rows.values()].filter((e) => e.exp > now);
  all = () => [...this.rows.values()];
}

const users: User[] = [];
const groups: Group[] = [];
const resources: Item[] = [];
const byId = new Map<string, User | Group | Item>();
const userResource = new Edges();
const userGroup = new Edges();
/** from: the nested group, to: the containing group, level: a level of the containing group. */
const groupGroup = new Edges();
const groupResource = new Edges();
const tagIds = new Map<string, string>();

/** Users with these statuses hold nothing: offboarding ends their edges, and rules never pick them. */
const ENDED = ['SUSPENDED', 'DEPROVISIONED', 'DELETED'];
const holds = (user: User) => !ENDED.includes(user.status);
const matches = (user: User, clauses: string[][]) => clauses.every((clause) => clause.some((tag) => user.tags.has(tag)));
function recomputeRule(group: Group): void {
  const rule = group.rule!;
  if (rule.status !== 'ACTIVE') return; // a paused rule keeps the members it had
  rule.members = new Set(users.filter((u) => holds(u) && matches(u, rule.when) && !(rule.unless.length > 0 && matches(u, rule.unless))).map((u) => u.id));
}

interface Holding { exp: number; direct: boolean; via: Set<string> }
interface Holdings { groups: Map<string, Holding>; resources: Map<string, Holding> }
const holdingKey = (item: string, level: string) => `${item} ${level}`;

/** The brute force: every user's holdings of groups and resources at `now`, straight from the definition. */
function computeHoldings(now: number): Map<string, Holdings> {
  const ug = userGroup.live(now), gg = groupGroup.live(now), gr = groupResource.live(now), ur = userResource.live(now);
  const result = new Map<string, Holdings>();
  for (const user of users) {
    const anyLevel = new Map<string, number>(); // group → latest expiry of the user's paths to it, any level
    const held: Holdings = { groups: new Map(), resources: new Map() };
    const add = (into: Map<string, Holding>, item: string, level: string, exp: number, via: string | null): boolean => {
      const key = holdingKey(item, level);
      const h = into.get(key) ?? { exp: -1, direct: false, via: new Set<string>() };
      const grew = exp > h.exp || (via !== null && !h.via.has(via)) || (via === null && !h.direct);
      h.exp = Math.max(h.exp, exp);
      if (via === null) h.direct = true;
      else h.via.add(via);
      into.set(key, h);
      return grew;
    };
    const reachGroup = (group: string, level: string, exp: number, via: string | null): boolean => {
      const grew = add(held.groups, group, level, exp, via);
      if (exp > (anyLevel.get(group) ?? -1)) {
        anyLevel.set(group, exp);
        return true;
      }
      return grew;
    };
    for (const e of ug) if (e.from === user.id) reachGroup(e.to, e.level, e.exp, null);
    for (const g of groups) if (g.rule?.members.has(user.id)) reachGroup(g.id, '', NEVER, null);
    for (let changed = true; changed; ) {
      changed = false;
      for (const e of gg) {
        const upTo = anyLevel.get(e.from);
        if (upTo !== undefined && reachGroup(e.to, e.level, Math.min(upTo, e.exp), e.from)) changed = true;
      }
    }
    for (const e of ur) if (e.from === user.id) add(held.resources, e.to, e.level, e.exp, null);
    for (const e of gr) {
      const upTo = anyLevel.get(e.from);
      if (upTo !== undefined) add(held.resources, e.to, e.level, Math.min(upTo, e.exp), e.from);
    }
    result.set(user.id, holds(user) ? held : { groups: new Map(), resources: new Map() });
  }
  return result;
}

const iso = (exp: number) => (exp === NEVER ? null : new Date(exp).toISOString());
const levelName = (item: Item, remote: string) => item.levels.find((l) => l.remote === remote)!.name;
const label = (id: unknown) => (typeof id === 'string' ? (byId.get(id)?.label ?? id) : String(id));

// ---- The test -----------------------------------------------------------------------------------

describe(`access graph against brute force (seed ${SEED})`, () => {
  let app: TestApp;
  let appId: string;
  let ownerId: string;
  const problems: string[] = [];
  const problem = (text: string) => void problems.push(text);
  const now = () => app.clock.now().getTime();
  const expiryIn = (minutes: number) => (minutes === 0 ? NEVER : now() + minutes * MINUTE);

  before(async () => {
    console.log(`access-graph-random: seed ${SEED} (GATEHOUSE_TEST_SEED=${SEED} to repeat)`);
    app = await startTestApp();
    const created = await createApp(app.api);
    appId = created.app_id;
    ownerId = created.admin_owner_id;
  });
  after(() => app.close());

  /** Fails fast on a write the model expects to succeed: what follows would only be noise. */
  function expectStatus(res: ApiResponse, statuses: number[], what: string): void {
    assert.ok(statuses.includes(res.status), `seed ${SEED}: ${what} → ${res.status} ${JSON.stringify(res.body)}`);
  }
  /** Runs independent calls a few at a time: the server answers one by one, but the round trips overlap. */
  async function inPool<T>(items: T[], run: (item: T) => Promise<void>, width = 6): Promise<void> {
    let next = 0;
    await Promise.all(Array.from({ length: width }, async () => {
      while (next < items.length) await run(items[next++]!);
    }));
  }

  // ---- writes, each updating the model after the service accepted it ----

  const levelsFor = (kind: string): Level[] => {
    const extra = kind === 'resource'
      ? [{ remote: 'read', name: 'Reader' }, { remote: 'write', name: 'Writer' }, { remote: 'admin', name: 'Admin' }]
      : [{ remote: 'member', name: 'Member' }, { remote: 'manager', name: 'Manager' }];
    return [{ remote: '', name: '' }, ...extra.filter(() => chance(0.5))];
  };
  const apiLevels = (levels: Level[]) => levels.filter((l) => l.remote !== '').map((l) => ({ access_level_name: l.name, access_level_remote_id: l.remote }));

  async function createEntities(): Promise<void> {
    for (const tag of TAGS) {
      const [key, value] = tag.split('=') as [string, string];
      const res = await app.api.post('/tag', { tag_key: key, tag_value: value });
      expectStatus(res, [200], `create tag ${tag}`);
      tagIds.set(tag, res.body.tag_id);
    }
    // Arrays are filled by index and random choices drawn before the calls overlap, so a seed
    // rebuilds the same graph whatever order the answers arrive in.
    await inPool([...Array(SIZE.users).keys()], async (i) => {
      const email = `rnd-${SEED}-${i}@example.com`;
      const res = await app.api.post('/users', { email, full_name: `Random User ${i}` });
      expectStatus(res, [200], 'create user');
      users[i] = { id: res.body.user_id, label: `u${i}`, email, fullName: `Random User ${i}`, tags: new Set(), status: 'ACTIVE' };
    });
    const resourceLevels = Array.from({ length: SIZE.resources }, () => levelsFor('resource'));
    await inPool([...Array(SIZE.resources).keys()], async (i) => {
      const name = `random resource ${i}`;
      const levels = resourceLevels[i]!;
      const res = await app.api.post('/resources', { name, resource_type: 'CUSTOM', app_id: appId, access_levels: apiLevels(levels) });
      expectStatus(res, [200], 'create resource');
      resources[i] = { id: res.body.resource_id, label: `r${i}`, name, description: res.body.description ?? '', levels };
    });
    const groupLevels = Array.from({ length: SIZE.groups }, () => levelsFor('group'));
    await inPool([...Array(SIZE.groups).keys()], async (i) => {
      const name = `random group ${i}`;
      const levels = groupLevels[i]!;
      const res = await app.api.post('/groups', { name, group_type: 'OPAL_GROUP', app_id: appId, access_levels: apiLevels(levels) });
      expectStatus(res, [200], 'create group');
      groups[i] = { id: res.body.group_id, label: `g${i}`, name, description: res.body.description ?? '', levels, layer: i % SIZE.layers };
    });
    for (const entity of [...users, ...resources, ...groups]) byId.set(entity.id, entity);
  }

  async function setTag(user: User, tag: string, on: boolean): Promise<void> {
    const path = `/tags/${tagIds.get(tag)}/users/${user.id}`;
    const res = on ? await app.api.post(path, {}) : await app.api.delete(path);
    expectStatus(res, [200], `${on ? 'attach' : 'detach'} ${tag} ${user.label}`);
    if (on) user.tags.add(tag);
    else user.tags.delete(tag);
    for (const g of groups) if (g.rule) recomputeRule(g);
  }

  const randomClauses = (count: number): string[][] =>
    Array.from({ length: count }, () => [...new Set(Array.from({ length: 1 + int(2) }, () => pick(TAGS)))]);
  const ruleBody = (group: Group) => {
    const conjunction = (clauses: string[][]) => ({
      clauses: clauses.map((c) => ({ selectors: c.map((tag) => ({ key: tag.split('=')[0], value: tag.split('=')[1], connection_id: appId })) })),
    });
    const rule = group.rule!;
    return {
      name: group.name, description: group.description, admin_owner_id: ownerId, status: rule.status,
      ruleClauses: rule.unless.length > 0 ? { when: conjunction(rule.when), unless: conjunction(rule.unless) } : { when: conjunction(rule.when) },
    };
  };

  async function createRule(i: number): Promise<void> {
    const group: Group = {
      id: '', label: `rule${i}`, name: `random rule ${i}`, description: `rule ${i}`, levels: [{ remote: '', name: '' }], layer: 0,
      rule: { status: 'ACTIVE', when: randomClauses(1 + int(2)), unless: chance(0.5) ? randomClauses(1) : [], members: new Set() },
    };
    const res = await app.api.post('/access-rules', ruleBody(group));
    expectStatus(res, [201], `create ${group.label}`);
    group.id = res.body.access_rule_id;
    groups.push(group);
    byId.set(group.id, group);
    recomputeRule(group);
  }

  /** A PUT that pauses, resumes, or (leaving the status) replaces the clauses. */
  async function changeRule(group: Group): Promise<void> {
    const rule = group.rule!;
    const what = pick(['status', 'clauses']);
    if (what === 'status') rule.status = rule.status === 'ACTIVE' ? 'PAUSED' : 'ACTIVE';
    else rule.when = randomClauses(1 + int(2));
    const res = await app.api.put(`/access-rules/${group.id}`, ruleBody(group));
    expectStatus(res, [200], `update ${group.label} (${what} → ${rule.status})`);
    recomputeRule(group);
  }

  type Kind = 'userResource' | 'userGroup' | 'groupGroup' | 'groupResource';
  const EDGES: Record<Kind, Edges> = { userResource, userGroup, groupGroup, groupResource };
  const edgePath: Record<Kind, (e: Edge) => string> = {
    userResource: (e) => `/resources/${e.to}/users/${e.from}`,
    userGroup: (e) => `/groups/${e.to}/users/${e.from}`,
    groupGroup: (e) => `/groups/${e.from}/containing-groups`,
    groupResource: (e) => `/groups/${e.from}/resources/${e.to}`,
  };
  const describeEdge = (kind: Kind, e: Edge) => `${kind} ${label(e.from)}→${label(e.to)} '${e.level}'`;

  async function grant(kind: Kind, from: string, to: string, level: string, minutes: number): Promise<void> {
    const edge: Edge = { from, to, level, exp: expiryIn(minutes) };
    const body = kind === 'groupGroup'
      ? { containing_group_id: to, access_level_remote_id: level, duration_minutes: minutes }
      : { access_level_remote_id: level, duration_minutes: minutes };
    const res = await app.api.post(edgePath[kind](edge), body);
    expectStatus(res, [200], `grant ${describeEdge(kind, edge)} for ${minutes} min`);
    if (kind !== 'groupGroup' && res.body.expiration_date !== iso(edge.exp)) {
      problem(`grant ${describeEdge(kind, edge)}: answered expiration_date ${res.body.expiration_date}, expected ${iso(edge.exp)}`);
    }
    EDGES[kind].set(edge);
  }

  async function revoke(kind: Kind, e: Edge): Promise<void> {
    const path = kind === 'groupGroup' ? `/groups/${e.from}/containing-groups/${e.to}` : edgePath[kind](e);
    const res = await app.api.delete(path, undefined, { query: { access_level_remote_id: e.level } });
    expectStatus(res, [200, 204], `revoke ${describeEdge(kind, e)}`);
    EDGES[kind].delete(e.from, e.to, e.level);
  }

  /** PUT with the level held: only the duration changes, counted from now. */
  async function extend(kind: 'userResource' | 'userGroup', e: Edge, minutes: number): Promise<void> {
    const res = await app.api.put(edgePath[kind](e), { duration_minutes: minutes, access_level_remote_id: e.level });
    expectStatus(res, [200], `update ${describeEdge(kind, e)} to ${minutes} min`);
    EDGES[kind].set({ ...e, exp: expiryIn(minutes) });
  }

  /**
   * PUT naming a level the user does not hold, while they hold exactly one: that one moves to the named
   * level (issue 7, item 9); with no level in the body, the one level held gets the new duration.
   */
  async function changeLevel(kind: 'userResource' | 'userGroup', e: Edge, level: string | undefined, minutes: number): Promise<void> {
    const body = level === undefined ? { duration_minutes: minutes } : { duration_minutes: minutes, access_level_remote_id: level };
    const res = await app.api.put(edgePath[kind](e), body);
    expectStatus(res, [200], `PUT ${describeEdge(kind, e)} with ${JSON.stringify(body)}`);
    EDGES[kind].delete(e.from, e.to, e.level);
    EDGES[kind].set({ from: e.from, to: e.to, level: level ?? e.level, exp: expiryIn(minutes) });
  }

  /** PUT /groups/{id}/resources replaces the set: live edges listed keep their expiry, others listed never expire. */
  async function setGroupResources(group: Group, items: [string, string][]): Promise<void> {
    const res = await app.api.put(`/groups/${group.id}/resources`, { resources: items.map(([r, level]) => ({ resource_id: r, access_level_remote_id: level })) });
    expectStatus(res, [200], `PUT /groups/${group.label}/resources with ${items.length} items`);
    const kept = new Map(groupResource.live(now()).filter((e) => e.from === group.id).map((e) => [groupResource.key(e.from, e.to, e.level), e.exp]));
    for (const e of groupResource.all()) if (e.from === group.id) groupResource.delete(e.from, e.to, e.level);
    for (const [r, level] of items) groupResource.set({ from: group.id, to: r, level, exp: kept.get(groupResource.key(group.id, r, level)) ?? NEVER });
  }
  const randomResourceSet = (count: number): [string, string][] => {
    const items = new Map<string, [string, string]>();
    for (let i = 0; i < count; i++) {
      const r = pick(resources);
      const level = pick(r.levels).remote;
      items.set(`${r.id} ${level}`, [r.id, level]);
    }
    return [...items.values()];
  };

  /** Offboarding (Gatehouse's PUT /users/{user_id}) ends every edge of the user; NOT_FOUND ends nothing. */
  async function setStatus(user: User, status: string): Promise<void> {
    const res = await app.api.put(`/users/${user.id}`, { hr_idp_status: status });
    expectStatus(res, [200], `set ${user.label} ${status}`);
    user.status = status;
    if (ENDED.includes(status)) {
      for (const edges of [userResource, userGroup]) for (const e of edges.all()) if (e.from === user.id) edges.delete(e.from, e.to, e.level);
      for (const g of groups) g.rule?.members.delete(user.id);
    }
    for (const g of groups) if (g.rule) recomputeRule(g);
  }

  /** Groups that `group` is nested in, transitively, through edges live now. */
  function containersOf(group: string): Set<string> {
    const found = new Set<string>();
    const live = groupGroup.live(now());
    for (let frontier = [group]; frontier.length > 0; ) {
      frontier = live.filter((e) => frontier.includes(e.from) && !found.has(e.to)).map((e) => e.to);
      for (const g of frontier) found.add(g);
    }
    return found;
  }

  /** Nesting a group in itself or in a group nested in it is refused, naming the field, and changes nothing. */
  async function attemptCycle(): Promise<void> {
    const plain = groups.filter((g) => !g.rule);
    const inner = pick(plain);
    const candidates = [...containersOf(inner.id)];
    const outer = candidates.length > 0 && chance(0.8) ? candidates[int(candidates.length)]! : inner.id;
    const target = byId.get(inner.id) as Group;
    const res = await app.api.post(`/groups/${outer}/containing-groups`, { containing_group_id: inner.id, access_level_remote_id: pick(target.levels).remote, duration_minutes: 0 });
    expectStatus(res, [400], `nest ${label(outer)} in ${label(inner.id)} (a cycle)`);
    if (res.body.details?.[0]?.path !== 'containing_group_id') problem(`cycle refusal names ${JSON.stringify(res.body.details)}, not containing_group_id`);
  }

  /** `count` random new edges of one kind, on keys without a live edge (a dead one is replaced). */
  async function grantRandom(kind: Kind, count: number): Promise<void> {
    const plan: [string, string, string, number][] = [];
    const planned = new Set<string>();
    const plainGroups = groups.filter((g) => !g.rule);
    for (let tries = 0; plan.length < count && tries < count * 20; tries++) {
      let from: string, to: Item;
      if (kind === 'userResource') [from, to] = [pick(users.filter(holds)).id, pick(resources)];
      else if (kind === 'userGroup') [from, to] = [pick(users.filter(holds)).id, pick(plainGroups)];
      else if (kind === 'groupResource') [from, to] = [pick(groups).id, pick(resources)];
      else {
        // Nesting climbs the layers (mostly one at a time), so chains reach four deep and never cycle.
        const inner = pick(groups.filter((g) => g.layer < SIZE.layers - 1));
        const step = chance(0.8) ? 1 : 1 + int(SIZE.layers - 1 - inner.layer);
        const outers = plainGroups.filter((g) => g.layer === inner.layer + step);
        if (outers.length === 0) continue;
        [from, to] = [inner.id, pick(outers)];
      }
      const level = pick(to.levels).remote;
      const key = EDGES[kind].key(from, to.id, level);
      const existing = EDGES[kind].get(from, to.id, level);
      if (planned.has(key) || (existing && existing.exp > now())) continue;
      planned.add(key);
      plan.push([from, to.id, level, pick(DURATIONS)]);
    }
    await inPool(plan, ([from, to, level, minutes]) => grant(kind, from, to, level, minutes));
  }

  /** The sweep's event type for each kind of edge (the closed list of event types). */
  const EXPIRED_EVENT: Record<Kind, string> = {
    userResource: 'RESOURCE_USERS_EXPIRED', userGroup: 'GROUP_USERS_EXPIRED', groupGroup: 'GROUPS_IN_GROUPS_EXPIRED', groupResource: 'GROUP_RESOURCES_EXPIRED',
  };
  async function expiryEvents(): Promise<Record<Kind, number>> {
    const counts = {} as Record<Kind, number>;
    for (const kind of Object.keys(EXPIRED_EVENT) as Kind[]) {
      counts[kind] = (await readAll('/events', { event_type_filter: EXPIRED_EVENT[kind] }, 'page_size', 1000)).length;
    }
    return counts;
  }

  // ---- reads, each compared with the model ----

  async function readAll(path: string, query: Query, sizeKey: 'page_size' | 'limit', size: number): Promise<Record<string, unknown>[]> {
    const rows: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 500; pages++) {
      const res = await app.api.get(path, { ...query, [sizeKey]: size, cursor });
      if (res.status !== 200) {
        problem(`GET ${path} → ${res.status} ${JSON.stringify(res.body)}`);
        return rows;
      }
      if (res.body.results.length > size) problem(`GET ${path}: ${res.body.results.length} rows on a page of ${size}`);
      rows.push(...res.body.results);
      cursor = res.body.next ?? undefined;
      if (cursor === undefined) return rows;
    }
    problem(`GET ${path}: still paging after 500 pages`);
    return rows;
  }

  function compare(where: string, expected: Map<string, unknown>, rows: Record<string, unknown>[], keyOf: (row: Record<string, unknown>) => string, shape: (row: Record<string, unknown>) => unknown): void {
    const seen = new Map<string, unknown>();
    for (const row of rows) {
      const key = keyOf(row);
      if (seen.has(key)) problem(`${where}: ${key} listed twice`);
      seen.set(key, shape(row));
    }
    for (const [key, want] of expected) {
      if (!seen.has(key)) problem(`${where}: missing ${key} ${JSON.stringify(want)}`);
      else if (!isDeepStrictEqual(seen.get(key), want)) problem(`${where}: ${key} is ${JSON.stringify(seen.get(key))}, expected ${JSON.stringify(want)}`);
    }
    for (const [key, got] of seen) if (!expected.has(key)) problem(`${where}: unexpected ${key} ${JSON.stringify(got)}`);
  }

  const levelOf = (row: Record<string, unknown>) => (row.access_level as { access_level_remote_id?: string } | null)?.access_level_remote_id;
  const pathShape = (row: Record<string, unknown>) => ({
    level_name: (row.access_level as { access_level_name?: string } | null)?.access_level_name,
    expiration_date: row.expiration_date ?? null,
    has_direct_access: row.has_direct_access,
    num_access_paths: row.num_access_paths,
  });
  const memberShape = (row: Record<string, unknown>) => ({
    level_name: (row.access_level as { access_level_name?: string } | null)?.access_level_name,
    expiration_date: row.expiration_date ?? null,
    names: [row.full_name, row.email, row.group_name],
  });
  const expectPath = (item: Item, level: string, h: Holding) => ({
    level_name: levelName(item, level), expiration_date: iso(h.exp), has_direct_access: h.direct, num_access_paths: (h.direct ? 1 : 0) + h.via.size,
  });
  const expectMember = (user: User, group: Group, level: string, h: Holding) => ({
    level_name: levelName(group, level), expiration_date: iso(h.exp), names: [user.fullName, user.email, group.name],
  });

  /** Every read of every user, group and resource, plus samples of the per-pair reads, against the model. */
  async function checkReads(when: string): Promise<void> {
    const at = now();
    const model = computeHoldings(at);
    // Mostly large pages (few requests); one list in ten walked in small pages, to exercise the cursors.
    const pageSizes = Array.from({ length: resources.length + 2 * users.length + groups.length }, () => (chance(0.1) ? 3 + int(10) : 60 + int(200)));
    const page = () => pageSizes.pop()!;
    const splitKey = (key: string) => key.split(' ') as [string, string];

    const holders = new Map(resources.map((r) => [r.id, new Map<string, unknown>()]));
    for (const u of users) {
      for (const [key, h] of model.get(u.id)!.resources) {
        const [r, level] = splitKey(key);
        holders.get(r)!.set(`${u.label} '${level}'`, expectPath(byId.get(r) as Item, level, h));
      }
    }
    const checkHolders = async (r: Item, size: number) => {
      const rows = await readAll(`/resources/${r.id}/users`, {}, 'limit', size);
      const keyOf = (row: Record<string, unknown>) => `${label(row.user_id)} '${levelOf(row)}'`;
      compare(`${when} GET /resources/${r.label}/users (limit ${size})`, holders.get(r.id)!, rows, keyOf, pathShape);
      for (const row of rows) if (row.resource_id !== r.id) problem(`${when} GET /resources/${r.label}/users: a row of ${label(row.resource_id)}`);
    };
    await inPool(resources, (r) => checkHolders(r, page()));
    // The most-held resources again in pages of 1 to 4: holder pages merge many source groups.
    const busiest = [...resources].sort((a, b) => holders.get(b.id)!.size - holders.get(a.id)!.size).slice(0, 3);
    await inPool(busiest, (r) => checkHolders(r, 1 + int(4)));

    await inPool(users, async (u) => {
      const held = model.get(u.id)!;
      const groupRows = await readAll(`/groups/users/${u.id}`, {}, 'page_size', page());
      const expectedGroups = new Map<string, unknown>();
      for (const [key, h] of held.groups) {
        const [g, level] = splitKey(key);
        expectedGroups.set(`${label(g)} '${level}'`, expectMember(u, byId.get(g) as Group, level, h));
      }
      compare(`${when} GET /groups/users/${u.label}`, expectedGroups, groupRows, (row) => `${label(row.group_id)} '${levelOf(row)}'`, memberShape);

      const resourceRows = await readAll(`/resources/users/${u.id}`, {}, 'limit', page());
      const expectedResources = new Map<string, unknown>();
      for (const [key, h] of held.resources) {
        const [r, level] = splitKey(key);
        expectedResources.set(`${label(r)} '${level}'`, expectPath(byId.get(r) as Item, level, h));
      }
      compare(`${when} GET /resources/users/${u.label}`, expectedResources, resourceRows, (row) => `${label(row.resource_id)} '${levelOf(row)}'`, pathShape);
      for (const row of [...groupRows, ...resourceRows]) if (row.user_id !== u.id) problem(`${when} reads of ${u.label} list ${label(row.user_id)}`);
    });

    await inPool(groups, async (g) => {
      const expected = new Map<string, unknown>();
      for (const u of users) {
        for (const [key, h] of model.get(u.id)!.groups) {
          const [item, level] = splitKey(key);
          if (item === g.id) expected.set(`${u.label} '${level}'`, expectMember(u, g, level, h));
        }
      }
      const rows = await readAll(`/groups/${g.id}/users`, {}, 'page_size', page());
      compare(`${when} GET /groups/${g.label}/users`, expected, rows, (row) => `${label(row.user_id)} '${levelOf(row)}'`, memberShape);
    });

    // Per-pair reads: a third held directly, a third held only through groups, a third drawn at random.
    const held = users.flatMap((u) => [...model.get(u.id)!.resources].map(([k, h]) => ({ u, r: byId.get(splitKey(k)[0]) as Item, level: splitKey(k)[1], direct: h.direct })));
    const [direct, viaGroups] = [held.filter((t) => t.direct), held.filter((t) => !t.direct)];
    const sample = () => {
      const from = pick([direct, viaGroups, []]);
      if (from.length > 0) return pick(from);
      const r = pick(resources);
      return { u: pick(users), r, level: pick(r.levels).remote };
    };
    await inPool(Array.from({ length: 80 }, sample), async ({ u, r, level }) => {
      const h = model.get(u.id)!.resources.get(holdingKey(r.id, level));
      const res = await app.api.get(`/resource-user-access-status/${r.id}/${u.id}`, { access_level_remote_id: level });
      const got = { status: res.body.status, expiration_date: res.body.expiration_date ?? null, ids: [res.body.resource_id, res.body.user_id] };
      const want = { status: h ? 'AUTHORIZED' : 'UNAUTHORIZED', expiration_date: h ? iso(h.exp) : null, ids: [r.id, u.id] };
      if (res.status !== 200 || !isDeepStrictEqual(got, want)) problem(`${when} access status ${r.label} ${u.label} '${level}': ${res.status} ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
    });

    // Sessions ride on held access, a group's included, and never outlast it.
    await inPool(Array.from({ length: 20 }, sample), async ({ u, r, level }) => {
      const h = model.get(u.id)!.resources.get(holdingKey(r.id, level));
      const res = await app.api.post('/sessions', { resource_id: r.id, user_id: u.id, access_level_remote_id: level, duration_minutes: 60 });
      const want = h ? { status: 200, expiration_date: iso(Math.min(at + 60 * MINUTE, h.exp)) } : { status: 409, expiration_date: undefined };
      const got = { status: res.status, expiration_date: h ? res.body.expiration_date : undefined };
      if (!isDeepStrictEqual(got, want)) problem(`${when} POST /sessions ${r.label} ${u.label} '${level}': ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
    });

    // Node queries with access filters read the same definition: who has access to an item, and
    // what a user has access to, for a sample of each.
    const query = async (accessFilters: Record<string, unknown>, entityTypes: string[]) => {
      const res = await app.api.post('/queries/run', { type: 'NODE', first: 1000, query: { accessFilters, nodeFilters: { entityTypes } } });
      if (res.status !== 200) problem(`${when} POST /queries/run ${JSON.stringify(accessFilters)}: ${res.status}`);
      return ((res.body.edges ?? []) as { node: { id: string } }[]).map((e) => e.node.id).sort();
    };
    await inPool([...resources, ...groups].filter(() => chance(0.3)), async (item) => {
      const want = users.filter((u) => [...model.get(u.id)!.resources.keys(), ...model.get(u.id)!.groups.keys()].some((k) => splitKey(k)[0] === item.id)).map((u) => u.id).sort();
      const got = await query({ hasAccessTo: { entityIDs: [item.id] } }, ['USER']);
      if (!isDeepStrictEqual(got, want)) problem(`${when} query hasAccessTo ${item.label}: ${got.map(label).join(',')}, expected ${want.map(label).join(',')}`);
    });
    await inPool(users.filter(() => chance(0.3)), async (u) => {
      const held = model.get(u.id)!;
      const want = [...new Set([...held.resources.keys(), ...held.groups.keys()].map((k) => splitKey(k)[0]))].sort();
      const got = await query({ isAccessibleBy: { entityIDs: [u.id] } }, ['GROUP', 'RESOURCE']);
      if (!isDeepStrictEqual(got, want)) problem(`${when} query isAccessibleBy ${u.label}: ${got.map(label).join(',')}, expected ${want.map(label).join(',')}`);
    });

    const report = problems.splice(0);
    assert.equal(report.length, 0, `seed ${SEED}, ${when}: ${report.length} disagreements with the model, first ones:\n${report.slice(0, 25).join('\n')}`);
  }

  const at = (minutes: number) => app.clock.set(new Date(Date.parse('2026-03-01T09:00:00.000Z') + minutes * MINUTE));

  it('builds the graph at the start, with cycle attempts refused, and reads agree at once', async () => {
    at(0);
    await createEntities();
    for (const user of users) for (const tag of TAGS) if (chance(0.3)) await setTag(user, tag, true);
    for (let i = 0; i < SIZE.rules; i++) await createRule(i);
    // One chain four deep that never expires (g0 in g1 in … g4, by layer), with a member at the bottom.
    for (let i = 0; i < 4; i++) await grant('groupGroup', groups[i]!.id, groups[i + 1]!.id, pick(groups[i + 1]!.levels).remote, 0);
    await grant('userGroup', users[0]!.id, groups[0]!.id, '', 0);
    await grantRandom('groupGroup', SIZE.nestings);
    for (let i = 0; i < 6; i++) await attemptCycle();
    await grantRandom('userGroup', SIZE.userGroup);
    const sets = groups.map((g) => [g, randomResourceSet(5 + int(40))] as const);
    await inPool([...sets], ([g, items]) => setGroupResources(g, items));
    await grantRandom('groupResource', SIZE.groupResource);
    await grantRandom('userResource', SIZE.userResource);
    // Tag changes and a pause after the rules exist: ACTIVE rules follow, PAUSED ones keep their members.
    for (let i = 0; i < 2; i++) await changeRule(pick(groups.filter((g) => g.rule)));
    for (let i = 0; i < 30; i++) await setTag(pick(users), pick(TAGS), chance(0.5));
    const edges = [userResource, userGroup, groupGroup, groupResource].reduce((n, e) => n + e.rows.size, 0);
    const ruleMembers = groups.reduce((n, g) => n + (g.rule?.members.size ?? 0), 0);
    console.log(`access-graph-random: ${edges} edges and ${ruleMembers} rule memberships built`);
    await checkReads('at the start');
  });

  it('agrees just before and exactly at the 60-minute expiries', async () => {
    at(60);
    app.clock.advance(-1);
    await checkReads('1 ms before 60 min');
    at(60);
    await checkReads('at 60 min');
  });

  it('agrees after revocations, re-grants, updates, level changes, tag and rule changes at 60 minutes', async () => {
    at(60);
    for (const kind of Object.keys(EDGES) as Kind[]) {
      const all = EDGES[kind].all();
      await inPool(all.filter(() => chance(0.1)), (e) => revoke(kind, e));
    }
    // Dead edges granted again replace the expired rows.
    const dead = (Object.keys(EDGES) as Kind[]).flatMap((kind) => EDGES[kind].all().filter((e) => e.exp <= now()).map((e) => [kind, e] as const));
    for (let i = 0; i < 30 && dead.length > 0; i++) {
      const [kind, e] = dead.splice(int(dead.length), 1)[0]!;
      await grant(kind, e.from, e.to, e.level, pick(DURATIONS));
    }
    for (const kind of ['userResource', 'userGroup'] as const) {
      const live = EDGES[kind].live(now());
      for (let i = 0; i < 20; i++) await extend(kind, pick(live), pick(DURATIONS));
    }
    for (const kind of ['userResource', 'userGroup'] as const) {
      const single = EDGES[kind].live(now()).filter((e) => EDGES[kind].live(now()).filter((o) => o.from === e.from && o.to === e.to).length === 1);
      for (let i = 0; i < 12 && single.length > 0; i++) {
        const e = single.splice(int(single.length), 1)[0]!;
        const other = (byId.get(e.to) as Item).levels.filter((l) => l.remote !== e.level);
        await changeLevel(kind, e, other.length > 0 && chance(0.7) ? pick(other).remote : undefined, pick(DURATIONS));
      }
    }
    // The new sets list every dead row too (replaced by an edge without expiry): whether an unlisted
    // dead row is removed at once or left for the sweep to record is not part of the definition.
    for (const g of [pick(groups), pick(groups)]) {
      const current = groupResource.all().filter((e) => e.from === g.id && (e.exp <= now() || chance(0.5))).map((e): [string, string] => [e.to, e.level]);
      const items = new Map([...current, ...randomResourceSet(1 + int(8))].map((item) => [item.join(' '), item]));
      await setGroupResources(g, [...items.values()]);
    }
    for (const kind of Object.keys(EDGES) as Kind[]) await grantRandom(kind, kind === 'groupGroup' ? 6 : 40);
    for (let i = 0; i < 4; i++) await attemptCycle();
    for (let i = 0; i < 40; i++) {
      if (chance(0.15)) await changeRule(pick(groups.filter((g) => g.rule)));
      else await setTag(pick(users), pick(TAGS), chance(0.5));
    }
    await checkReads('after the changes at 60 min');
  });

  it('agrees exactly at the 120-minute expiries; the sweep then removes exactly the dead edges, one event each, and the reads do not change', async () => {
    at(120);
    await checkReads('at 120 min');
    const dead = (Object.keys(EDGES) as Kind[]).map((kind) => [kind, EDGES[kind].all().filter((e) => e.exp <= now())] as const);
    const before = await expiryEvents();
    const swept = tick(app.ctx, app.clock.now());
    const recorded = await expiryEvents();
    for (const [kind, edges] of dead) {
      assert.equal(recorded[kind] - before[kind], edges.length, `seed ${SEED}: ${EXPIRED_EVENT[kind]} events for ${edges.length} dead ${kind} edges`);
      for (const e of edges) EDGES[kind].delete(e.from, e.to, e.level);
    }
    const total = dead.reduce((n, [, edges]) => n + edges.length, 0);
    assert.equal(swept, total, `seed ${SEED}: the sweep removed ${swept} edges; ${total} were dead`);
    await checkReads('at 120 min, after the sweep');
    assert.equal(tick(app.ctx, app.clock.now()), 0, 'a second sweep finds nothing');
    assert.deepEqual(await expiryEvents(), recorded, 'and records nothing');
  });

  // Right after the sweep no dead edge is left, so "ends every edge" cannot differ over dead rows.
  it('agrees after offboarding (NOT_FOUND is not offboarding) and once everything with a duration has expired', async () => {
    const [a, b, c] = [...users].sort(() => random() - 0.5);
    await setStatus(a!, 'SUSPENDED');
    await setStatus(b!, pick(['DEPROVISIONED', 'DELETED']));
    await setStatus(c!, 'NOT_FOUND');
    at(60 + 600);
    await checkReads('at 660 min, after offboarding at 120 min');
  });
});
