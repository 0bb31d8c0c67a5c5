// Randomized test of visibility (issue 42's kept sides): "who sees an item" is decided twice in the
// product — visibility.sees from the kept item and member sides, and visibleToViewer's statement
// (seesFresh). A seeded random catalogue of users (admins, members, READ_ONLY tokens), owners (listed
// users, or a source group), nested groups, resources, groups and bundles (GLOBAL or LIMITED to
// visibility groups), memberships, nestings and grants that expire, is built through the HTTP API;
// then, at instants of the manual clock on both sides of the expiries (and once back in time), and
// after each of a run of writes, every (user, item) pair is judged three ways — `sees` twice (the
// second from what the first kept), `seesFresh`, and a brute-force model written here from
// docs/visibility.md, docs/owners.md and docs/access-graph.md (no SQL, no src/ imports) — and each
// user reads every item through GET /v1/{kind}s/{id} (404 for an unseen one; admins see all) and lists
// GET /v1/resources, /v1/groups and /v1/bundles (only what they see), each twice, and asks a node query.
// Re-run a failure with its seed: GATEHOUSE_TEST_SEED=<seed> node test/run.mjs visibility-random
//
// The definition, as the model computes it: an edge is live at `now` while it has no expiry or
// expires after now. U is an effective member of G when a live membership U→G exists, or U is one
// of a group nested (live) in G. U sees item X when U is an organization admin; or X is GLOBAL; or U
// is an effective member of one of X's visibility groups; or U is a user of X's admin owner (listed,
// for an owner without a source group; an effective member of the source group otherwise); or U
// holds X — a resource through a live direct grant or a live grant to a group U is an effective
// member of; a group by being an effective member of it; a bundle never.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import type { ApiClient, ApiResponse } from '../helpers/client.ts';
import { createApp, createToken, unique } from '../helpers/fixtures.ts';
import { seededRandom } from '../helpers/random.ts';

const MINUTE = 60_000;
const NEVER = Number.POSITIVE_INFINITY;
/** Small enough for a few seconds a seed on a loaded 2-core machine: ~400 (user, item) pairs. */
const SIZE = { admins: 2, members: 12, owners: 5, sourceOwners: 2, groups: 10, resources: 12, bundles: 4, memberships: 30, nestings: 10, userGrants: 24, groupGrants: 16 };
/** Durations in minutes (0: indefinite); few distinct values, so several edges expire at the same instant. */
const DURATIONS = [0, 0, 30, 60, 90];

/**
 * Seeds that once found a disagreement, kept as named cases (each runs besides a new random seed).
 * Empty so far: the property has found none.
 */
const NAMED_SEEDS: { seed: number; found: string }[] = [];

const RANDOM_SEED = Number(process.env.GATEHOUSE_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31));
for (const { seed, found } of [...NAMED_SEEDS, { seed: RANDOM_SEED, found: '' }]) {
  describe(`visibility against brute force (seed ${seed}${found ? `: ${found}` : ''})`, () => property(seed));
}

type Kind = 'resource' | 'group' | 'bundle';
interface User { id: string; label: string; admin: boolean; readOnly: boolean; api: ApiClient }
interface Owner { id: string; label: string; users: Set<string>; source: string | null }
interface Item { kind: Kind; id: string; label: string; owner: string; limited: boolean; groups: string[] }
interface Edge { from: string; to: string; exp: number }
type EdgeKind = 'membership' | 'nesting' | 'userGrant' | 'groupGrant';

function property(seed: number): void {
  const { random, int } = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const chance = (p: number) => random() < p;
  const sample = <T>(items: readonly T[], count: number): T[] => [...items].sort(() => random() - 0.5).slice(0, count);

  let app: TestApp;
  const users: User[] = [];
  const owners: Owner[] = [];
  const items: Item[] = [];
  const groups = () => items.filter((i) => i.kind === 'group');
  const ofKind = (kind: Kind) => items.filter((i) => i.kind === kind);
  const labels = new Map<string, string>();
  const label = (id: string) => labels.get(id) ?? id;
  /** Keyed `from to` (one row per pair: every edge is at the default level). */
  const edges: Record<EdgeKind, Map<string, Edge>> = { membership: new Map(), nesting: new Map(), userGrant: new Map(), groupGrant: new Map() };

  const now = () => app.clock.now().getTime();
  const at = (minutes: number) => app.clock.set(new Date(Date.parse('2026-03-01T09:00:00.000Z') + minutes * MINUTE));
  const expiryIn = (minutes: number) => (minutes === 0 ? NEVER : now() + minutes * MINUTE);

  before(async () => {
    console.log(`visibility-random: seed ${seed} (GATEHOUSE_TEST_SEED=${seed} to repeat)`);
    app = await startTestApp();
  });
  after(() => app.close());

  function expectStatus(res: ApiResponse, statuses: number[], what: string): void {
    assert.ok(statuses.includes(res.status), `seed ${seed}: ${what} → ${res.status} ${JSON.stringify(res.body)}`);
  }

  // ---- The model -------------------------------------------------------------------------------

  const live = (kind: EdgeKind, t: number) => [...edges[kind].values()].filter((e) => e.exp > t);

  /** The groups `user` is an effective member of at `t`: live memberships, then live nestings upward until nothing is added. */
  function effectiveGroups(user: string, t: number): Set<string> {
    const reached = new Set(live('membership', t).filter((e) => e.from === user).map((e) => e.to));
    const nestings = live('nesting', t);
    for (let grew = true; grew; ) {
      grew = false;
      for (const e of nestings) {
        if (reached.has(e.from) && !reached.has(e.to)) {
          reached.add(e.to);
          grew = true;
        }
      }
    }
    return reached;
  }

  /** Whether `user` sees `item` at `t` by the rules for a non-admin (docs/visibility.md, "Who sees a LIMITED item"). */
  function modelSees(user: User, item: Item, t: number): boolean {
    if (!item.limited) return true;
    const member = effectiveGroups(user.id, t);
    if (item.groups.some((g) => member.has(g))) return true;
    const owner = owners.find((o) => o.id === item.owner)!;
    if (owner.source === null ? owner.users.has(user.id) : member.has(owner.source)) return true;
    if (item.kind === 'group') return member.has(item.id);
    if (item.kind === 'resource') {
      return live('userGrant', t).some((e) => e.from === user.id && e.to === item.id)
        || live('groupGrant', t).some((e) => e.to === item.id && member.has(e.from));
    }
    return false;
  }

  // ---- Writes, each updating the model once the service accepted it ----------------------------

  async function createEntities(): Promise<void> {
    const { app_id: appId } = await createApp(app.api);
    for (let i = 0; i < SIZE.admins + SIZE.members; i++) {
      const admin = i < SIZE.admins;
      const readOnly = admin ? i === 1 : chance(0.5);
      const name = unique(`vis-${seed}-u${i}`);
      const res = await app.api.post('/users', { email: `${name}@example.com`, full_name: `Visibility ${i}`, organization_role: admin ? 'ADMIN' : 'MEMBER' });
      expectStatus(res, [200], 'create user');
      const token = await createToken(app.api, { user_id: res.body.user_id, access_level: readOnly ? 'READ_ONLY' : 'FULL_ACCESS' });
      users.push({ id: res.body.user_id, label: `${admin ? 'admin' : 'u'}${i}${readOnly ? '(RO)' : ''}`, admin, readOnly, api: app.api.as(token.secret) });
    }
    for (let i = 0; i < SIZE.owners; i++) {
      const listed = sample(users, int(4)).map((u) => u.id);
      const res = await app.api.post('/owners', { name: unique(`vis-owner-${i}`), user_ids: listed });
      expectStatus(res, [200], 'create owner');
      owners.push({ id: res.body.owner_id, label: `o${i}`, users: new Set(listed), source: null });
    }
    for (let i = 0; i < SIZE.groups; i++) {
      const owner = pick(owners).id;
      const res = await app.api.post('/groups', { name: unique(`vis-group-${i}`), group_type: 'OPAL_GROUP', app_id: appId, admin_owner_id: owner });
      expectStatus(res, [200], 'create group');
      items.push({ kind: 'group', id: res.body.group_id, label: `g${i}`, owner, limited: false, groups: [] });
    }
    for (let i = 0; i < SIZE.resources; i++) {
      const owner = pick(owners).id;
      const res = await app.api.post('/resources', { name: unique(`vis-resource-${i}`), resource_type: 'CUSTOM', app_id: appId, admin_owner_id: owner });
      expectStatus(res, [200], 'create resource');
      items.push({ kind: 'resource', id: res.body.resource_id, label: `r${i}`, owner, limited: false, groups: [] });
    }
    for (let i = 0; i < SIZE.bundles; i++) {
      const owner = pick(owners).id;
      const res = await app.api.post('/bundles', { name: unique(`vis-bundle-${i}`), admin_owner_id: owner });
      expectStatus(res, [201], 'create bundle');
      items.push({ kind: 'bundle', id: res.body.bundle_id, label: `b${i}`, owner, limited: false, groups: [] });
    }
    for (const thing of [...users, ...owners, ...items]) labels.set(thing.id, thing.label);
    // Owners whose users come from a source group (linking forgets the listed users: docs/owners.md).
    for (const owner of owners.slice(0, SIZE.sourceOwners)) await setSource(owner, pick(groups()).id);
  }

  async function setSource(owner: Owner, group: string | null): Promise<void> {
    const res = await app.api.put('/owners', { owners: [{ owner_id: owner.id, source_group_id: group ?? '' }] });
    expectStatus(res, [200], `link ${owner.label} to ${group === null ? 'no group' : label(group)}`);
    // Linking or unlinking forgets the listed users; naming the link it already has changes nothing.
    if (owner.source !== group) owner.users.clear();
    owner.source = group;
  }

  async function setOwnerUsers(owner: Owner, listed: string[]): Promise<void> {
    const res = await app.api.put(`/owners/${owner.id}/users`, { user_ids: listed });
    expectStatus(res, [200], `list ${listed.map(label).join(',')} as ${owner.label}'s users`);
    owner.users = new Set(listed);
  }

  async function setVisibility(item: Item, limited: boolean, visibilityGroups: string[]): Promise<void> {
    const res = await app.api.put(`/${item.kind}s/${item.id}/visibility`, { visibility: limited ? 'LIMITED' : 'GLOBAL', visibility_group_ids: visibilityGroups });
    expectStatus(res, [200], `${item.label} ${limited ? `LIMITED to ${visibilityGroups.map(label).join(',') || 'nothing'}` : 'GLOBAL'}`);
    item.limited = limited;
    item.groups = visibilityGroups;
  }
  const randomVisibility = (item: Item) => (chance(0.7) ? setVisibility(item, true, sample(groups(), int(3)).map((g) => g.id)) : setVisibility(item, false, []));

  async function setAdminOwner(item: Item, owner: string): Promise<void> {
    const res = item.kind === 'bundle'
      ? await app.api.put(`/bundles/${item.id}`, { admin_owner_id: owner })
      : await app.api.put(`/${item.kind}s`, { [`${item.kind}s`]: [{ [`${item.kind}_id`]: item.id, admin_owner_id: owner }] });
    expectStatus(res, [200], `${item.label}'s admin owner → ${label(owner)}`);
    item.owner = owner;
  }

  const edgePath: Record<EdgeKind, (e: Edge) => string> = {
    membership: (e) => `/groups/${e.to}/users/${e.from}`,
    nesting: (e) => `/groups/${e.from}/containing-groups`,
    userGrant: (e) => `/resources/${e.to}/users/${e.from}`,
    groupGrant: (e) => `/groups/${e.from}/resources/${e.to}`,
  };
  const ends: Record<EdgeKind, () => [string[], string[]]> = {
    membership: () => [users.map((u) => u.id), groups().map((g) => g.id)],
    nesting: () => [groups().map((g) => g.id), groups().map((g) => g.id)],
    userGrant: () => [users.map((u) => u.id), ofKind('resource').map((r) => r.id)],
    groupGrant: () => [groups().map((g) => g.id), ofKind('resource').map((r) => r.id)],
  };

  /** Grants a new edge (a dead one is revived), at the default level, for `minutes` (0: indefinite). */
  async function grant(kind: EdgeKind, from: string, to: string, minutes: number): Promise<void> {
    const edge = { from, to, exp: expiryIn(minutes) };
    const body = kind === 'nesting' ? { containing_group_id: to, access_level_remote_id: '', duration_minutes: minutes } : { access_level_remote_id: '', duration_minutes: minutes };
    const res = await app.api.post(edgePath[kind](edge), body);
    expectStatus(res, [200], `grant ${kind} ${label(from)}→${label(to)} for ${minutes} min`);
    edges[kind].set(`${from} ${to}`, edge);
  }

  /** `count` random edges not already live; nestings only upward in creation order, so none closes a loop. */
  async function grantRandom(kind: EdgeKind, count: number): Promise<void> {
    const [froms, tos] = ends[kind]();
    for (let n = 0, tries = 0; n < count && tries < count * 20; tries++) {
      const [from, to] = [pick(froms), pick(tos)];
      if (kind === 'nesting' && froms.indexOf(from) >= tos.indexOf(to)) continue;
      if ((edges[kind].get(`${from} ${to}`)?.exp ?? -1) > now()) continue;
      await grant(kind, from, to, pick(DURATIONS));
      n++;
    }
  }

  async function revoke(kind: EdgeKind, e: Edge): Promise<void> {
    const path = kind === 'nesting' ? `/groups/${e.from}/containing-groups/${e.to}` : edgePath[kind](e);
    const res = await app.api.delete(path, undefined, { query: { access_level_remote_id: '' } });
    expectStatus(res, [200, 204], `revoke ${kind} ${label(e.from)}→${label(e.to)}`);
    edges[kind].delete(`${e.from} ${e.to}`);
  }

  /** A deleted group leaves every edge and every visibility list it was on (the items stay LIMITED). */
  async function deleteGroup(group: Item): Promise<void> {
    const res = await app.api.delete(`/groups/${group.id}`);
    expectStatus(res, [200, 204], `delete ${group.label}`);
    items.splice(items.indexOf(group), 1);
    for (const kind of Object.keys(edges) as EdgeKind[]) {
      for (const [key, e] of edges[kind]) if (e.from === group.id || e.to === group.id) edges[kind].delete(key);
    }
    for (const item of items) item.groups = item.groups.filter((g) => g !== group.id);
  }

  // ---- The checks ------------------------------------------------------------------------------

  /**
   * Every (user, item) pair, in process: `sees` (worked out, then from what it kept), `seesFresh` and
   * the model must all agree. Fails with the first disagreements, each naming the three answers.
   */
  function checkSides(when: string): void {
    const { visibility } = app.ctx.stores;
    const t = now();
    const problems: string[] = [];
    for (const user of users) {
      const viewer = { userId: user.id, now: app.clock.now() };
      for (const item of items) {
        const got = [visibility.sees(item.kind, item.id, viewer), visibility.sees(item.kind, item.id, viewer), visibility.seesFresh(item.kind, item.id, viewer)];
        const want = modelSees(user, item, t);
        if (got.some((answer) => answer !== want)) problems.push(`${user.label} ${item.label}: sees ${got[0]}, kept ${got[1]}, statement ${got[2]}, model ${want}`);
      }
    }
    assert.equal(problems.length, 0, `seed ${seed}, ${when}: ${problems.length} disagreements, first ones:\n${problems.slice(0, 20).join('\n')}`);
  }

  /** Every user reads every item by id over HTTP: 200 when the model (or being an admin) says they see it, else 404. */
  async function checkReads(when: string): Promise<void> {
    checkSides(when);
    const t = now();
    const problems: string[] = [];
    const pairs = users.flatMap((user) => items.map((item) => ({ user, item })));
    let next = 0;
    await Promise.all(Array.from({ length: 6 }, async () => {
      while (next < pairs.length) {
        const { user, item } = pairs[next++]!;
        const res = await user.api.get(`/${item.kind}s/${item.id}`);
        const want = user.admin || modelSees(user, item, t) ? 200 : 404;
        if (res.status !== want) problems.push(`${user.label} GET ${item.label}: ${res.status}, expected ${want}`);
      }
    }));
    assert.equal(problems.length, 0, `seed ${seed}, ${when}: ${problems.length} reads disagree, first ones:\n${problems.slice(0, 20).join('\n')}`);
    await checkLists(when, users);
  }

  /**
   * The lists as each of `readers`: GET /v1/resources, /v1/groups, /v1/bundles hold exactly what the model
   * says they see (admins: everything), in pages of a random size, each read twice (the second from what
   * the first kept: lists are kept between reads for a member, resources/pages.ts).
   */
  async function checkLists(when: string, readers: readonly User[]): Promise<void> {
    const t = now();
    const problems: string[] = [];
    // Drawn before the calls overlap, so a seed asks the same pages whatever order the answers come in.
    const reads = readers.flatMap((user) => (['resource', 'group', 'bundle'] as const).flatMap((kind) => ['first', 'again'].map((read) => ({ user, kind, read, size: 1 + int(12) }))));
    await Promise.all(readers.map(async (reader) => {
      for (const { user, kind, read, size } of reads.filter((r) => r.user === reader)) {
        const want = ofKind(kind).filter((item) => user.admin || modelSees(user, item, t)).map((item) => item.label).sort();
        const got = (await listIds(user, kind, size)).map(label).sort();
        if (got.join() !== want.join()) problems.push(`${user.label} GET /${kind}s (${read}, pages of ${size}): ${got.join(',')}, expected ${want.join(',')}`);
      }
      // A node query filters groups and resources by the same definition (docs/queries.md).
      const res = await reader.api.post('/queries/run', { type: 'NODE', first: 1000, query: { nodeFilters: { entityTypes: ['GROUP', 'RESOURCE'] } } });
      const got = ((res.body.edges ?? []) as { node: { id: string } }[]).map((edge) => label(edge.node.id)).sort();
      const want = items.filter((item) => item.kind !== 'bundle' && (reader.admin || modelSees(reader, item, t))).map((item) => item.label).sort();
      if (res.status !== 200 || got.join() !== want.join()) problems.push(`${reader.label} POST /queries/run: ${res.status} ${got.join(',')}, expected ${want.join(',')}`);
    }));
    assert.equal(problems.length, 0, `seed ${seed}, ${when}: ${problems.length} lists disagree, first ones:\n${problems.slice(0, 20).join('\n')}`);
  }

  /** Every id of GET /v1/{kind}s as `user`, page by page. */
  async function listIds(user: User, kind: Kind, pageSize: number): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const res = await user.api.get(`/${kind}s`, { page_size: pageSize, cursor });
      assert.equal(res.status, 200, `seed ${seed}: GET /${kind}s as ${user.label} → ${res.status} ${JSON.stringify(res.body)}`);
      const rows = (kind === 'bundle' ? res.body.bundles : res.body.results) as Record<string, string>[];
      ids.push(...rows.map((row) => row[`${kind}_id`]!));
      cursor = res.body.next ?? undefined;
      if (cursor === undefined) return ids;
    }
    assert.fail(`seed ${seed}: GET /${kind}s as ${user.label} still paging after 100 pages`);
  }

  // ---- The run ---------------------------------------------------------------------------------

  it('builds the catalogue and the graph; every side agrees at once', async () => {
    at(0);
    await createEntities();
    // One chain that never expires (g0 in g1 in g2), with a member at the bottom.
    const [g0, g1, g2] = groups();
    await grant('nesting', g0!.id, g1!.id, 0);
    await grant('nesting', g1!.id, g2!.id, 0);
    await grant('membership', users[SIZE.admins]!.id, g0!.id, 0);
    await grantRandom('nesting', SIZE.nestings);
    await grantRandom('membership', SIZE.memberships);
    await grantRandom('userGrant', SIZE.userGrants);
    await grantRandom('groupGrant', SIZE.groupGrants);
    for (const item of items) await randomVisibility(item);
    const limited = items.filter((i) => i.limited).length;
    console.log(`visibility-random: ${users.length} users, ${items.length} items (${limited} LIMITED), ${Object.values(edges).reduce((n, m) => n + m.size, 0)} edges`);
    await checkReads('at the start');
  });

  it('agrees just before, at and after the expiries, and when the clock steps back', async () => {
    for (const [minutes, when] of [[30, '30 min'], [60, '60 min'], [90, '90 min']] as const) {
      at(minutes);
      app.clock.advance(-1);
      checkSides(`1 ms before ${when}`);
      at(minutes);
      await checkReads(`at ${when}`);
    }
    // A clock stepped back (NTP) makes edges live again that had expired: nothing kept may outlast that.
    at(45);
    checkSides('back at 45 min');
    at(100);
    await checkReads('at 100 min');
  });

  it('agrees after each of a run of writes: grants, revocations, visibility, owners, source groups, a deleted group', async () => {
    at(100);
    const writes: [string, () => Promise<void>][] = [];
    const kinds = Object.keys(edges) as EdgeKind[];
    for (let i = 0; i < 24; i++) {
      const roll = int(9);
      if (roll <= 2) {
        const kind = pick(kinds);
        writes.push([`grant ${kind}`, () => grantRandom(kind, 1)]);
      } else if (roll === 3) {
        const kind = pick(kinds);
        writes.push([`revoke ${kind}`, async () => {
          const held = [...edges[kind].values()];
          if (held.length > 0) await revoke(kind, pick(held));
        }]);
      } else if (roll === 4) {
        writes.push(['visibility', () => randomVisibility(pick(items))]);
      } else if (roll === 5) {
        writes.push(['owner users', async () => {
          const listed = owners.filter((o) => o.source === null);
          if (listed.length > 0) await setOwnerUsers(pick(listed), sample(users, int(4)).map((u) => u.id));
        }]);
      } else if (roll === 6) {
        writes.push(['source group', () => setSource(pick(owners), chance(0.8) ? pick(groups()).id : null)]);
      } else if (roll === 7) {
        writes.push(['admin owner', () => setAdminOwner(pick(items), pick(owners).id)]);
      } else {
        writes.push(['time', async () => app.clock.advance((1 + int(40)) * MINUTE)]);
      }
    }
    // Each check keeps what the next write must drop (the one before the first is the last phase's).
    // After each write the lists of a few members too (a list kept for a member must follow it as well).
    const readers = writes.map(() => sample(users.filter((u) => !u.admin), 3));
    for (const [i, [what, write]] of writes.entries()) {
      await write();
      checkSides(`after "${what}"`);
      await checkLists(`after "${what}"`, readers[i]!);
    }
    await checkReads('after the writes');
    // A group that is on visibility lists and holds edges goes (not one an owner takes its users from:
    // that one cannot be deleted).
    const sources = new Set(owners.map((o) => o.source));
    const deletable = groups().filter((g) => !sources.has(g.id));
    const onLists = deletable.filter((g) => items.some((i) => i.groups.includes(g.id)));
    await deleteGroup(pick(onLists.length > 0 ? onLists : deletable));
    await checkReads('after a group was deleted');
    at(1000);
    await checkReads('once everything with a duration has expired');
  });
}
