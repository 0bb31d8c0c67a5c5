// Everything kept between reads on the service's connection shares one total (db/kept.ts): past it the
// least recently used answer of any kind goes first, an answer read again stays, and what was dropped is
// built again, answering exactly what a fresh build answers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KEPT_ENTRY_BYTES, keptTotal, setKeptTotal } from '../../src/db/kept.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createGroup, createResource } from '../helpers/fixtures.ts';

describe('kept answers: one bound for every kind together', () => {
  let app: TestApp;
  const resources: string[] = [];
  const groups: string[] = [];
  before(async () => {
    app = await startTestApp();
    const appId = (await createApp(app.api)).app_id;
    for (let i = 0; i < 12; i++) resources.push((await createResource(app.api, { app_id: appId, description: `resource ${i} `.repeat(20) })).resource_id);
    for (let i = 0; i < 3; i++) groups.push((await createGroup(app.api)).group_id);
  });
  after(() => app.close());

  /** GET /v1/{kind}s/{id} as the admin, which must equal the store's fresh build. */
  async function read(kind: 'resource' | 'group', id: string): Promise<void> {
    const res = await app.api.get(`/${kind}s/${id}`);
    assert.equal(res.status, 200);
    const fresh = kind === 'resource' ? app.ctx.stores.resources.get(id) : app.ctx.stores.groups.get(id);
    assert.deepEqual(res.body, JSON.parse(JSON.stringify(fresh)), `${kind} ${id}: not the answer built fresh`);
  }
  const keptResources = () => app.ctx.stores.resources.keptAnswers().entries;
  const keptGroups = () => app.ctx.stores.groups.keptAnswers().entries;

  it('drops the least recently used of any kind past the total, keeps what is read again, and answers the same', async () => {
    // Measure one resource's cost as kept, then bound the total at about four of them.
    await read('resource', resources[0]!);
    const one = keptTotal(app.ctx.db).bytes;
    assert.ok(one > KEPT_ENTRY_BYTES, 'an answer is counted with what keeping it costs');
    const total = Math.floor(one * 4.5);
    setKeptTotal(app.ctx.db, total);
    try {
      for (const id of groups) await read('group', id);
      assert.equal(keptGroups(), 3);
      // Resources pile in; group 0 is read again all along, so it is never the least recently used.
      for (const id of resources) {
        await read('resource', id);
        await read('group', groups[0]!);
        assert.ok(keptTotal(app.ctx.db).bytes <= total, `kept ${keptTotal(app.ctx.db).bytes} bytes, bound ${total}`);
      }
      assert.equal(keptGroups(), 1, 'the groups not read again were the least recently used: dropped first');
      assert.ok(keptResources() >= 2 && keptResources() < resources.length, `${keptResources()} resources kept`);
      // Everything dropped is built again, the same as fresh (read() checks each against the store).
      for (const id of [...resources, ...groups]) await read(groups.includes(id) ? 'group' : 'resource', id);
      assert.ok(keptTotal(app.ctx.db).bytes <= total);
    } finally {
      setKeptTotal(app.ctx.db, Number.MAX_SAFE_INTEGER);
    }
  });

  it('keeps the count honest when answers are dropped by writes and by a lower bound', async () => {
    await read('resource', resources[1]!);
    const before = keptTotal(app.ctx.db).bytes;
    assert.ok(before > 0);
    // A write drops that resource's answer (and everything a parent change touches): the total follows.
    const res = await app.api.put('/resources', { resources: [{ resource_id: resources[1], description: 'changed' }] });
    assert.equal(res.status, 200);
    assert.ok(keptTotal(app.ctx.db).bytes < before);
    await read('resource', resources[1]!);
    // A bound of zero drops everything at once; nothing more is kept until it is raised.
    setKeptTotal(app.ctx.db, 0);
    assert.equal(keptTotal(app.ctx.db).bytes, 0);
    assert.equal(keptResources(), 0);
    await read('resource', resources[2]!);
    assert.equal(keptResources(), 0);
    setKeptTotal(app.ctx.db, Number.MAX_SAFE_INTEGER);
    await read('resource', resources[2]!);
    assert.equal(keptResources(), 1);
  });

  it('copies a page only when it keeps it: one past the bounds is refused as it is, uncopied', async () => {
    const pages = app.ctx.stores.resources.keptPages;
    const at = app.clock.now().toISOString();
    const before = pages.size;
    assert.equal(pages.keep('admin', 'too big', new Uint8Array(16 * 2 ** 20), at, null), undefined);
    assert.deepEqual(pages.size, before);
    // A page that fits is kept as a copy of its own: the worker's buffer, freed once sent, is not it.
    const sent = new TextEncoder().encode('{"results":[]}');
    const kept = pages.keep('admin', 'fits', sent, at, null);
    assert.ok(kept !== undefined && kept !== sent && kept.buffer !== sent.buffer);
    (sent.buffer as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0);
    assert.equal(new TextDecoder().decode(pages.get('admin', 'fits', at)), '{"results":[]}');
  });
});
