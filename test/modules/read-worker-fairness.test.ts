// Heavy reads are shared fairly between callers (issue 30, item 3): each caller has a queue of their own
// and a free read worker serves the callers in turn, so another caller's read goes next whatever backlog one
// caller keeps; a caller's backlog is bounded (429 with Retry-After), and a full queue refuses only callers
// who already have a read waiting. One worker runs the reads one at a time, so the order the reads answer in
// is the order they were dispatched in: the tests assert that order, never a time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../src/http/errors.ts';
import { parse } from '../../src/http/parse.ts';
import { ListResourcesQuery } from '../../src/modules/resources/schemas.ts';
import { MAX_READS_PER_CALLER } from '../../src/reads/pool.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createApp, createResource } from '../helpers/fixtures.ts';

describe('heavy reads shared between callers', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { GATEHOUSE_READ_WORKERS: '1' } });
    const appId = (await createApp(app.api)).app_id;
    for (let i = 0; i < 3; i++) await createResource(app.api, { app_id: appId });
  });
  after(() => app.close());

  /** Starts one read for `caller`; its name lands in `answered` when it answers (or `refused` names why not). `gone`: whether its client has left. */
  const read = (caller: string, answered: string[], refused: { caller: string; error: AppError }[] = [], gone?: () => boolean) => {
    const query = parse(ListResourcesQuery, { page_size: '100' }, 'query');
    return app.ctx.reads.run('resources.list', { query, viewer: null }, caller, app.clock.now(), gone).then(
      () => void answered.push(caller),
      (error: AppError) => void refused.push({ caller, error }),
    );
  };

  it('dispatches another caller\'s read next, however many reads one caller keeps queued', async () => {
    assert.equal(app.ctx.reads.workers, 1);
    const answered: string[] = [];
    // Caller a fills their backlog; the first runs at once, the rest wait. Then b and c ask once each.
    const reads = Array.from({ length: MAX_READS_PER_CALLER }, () => read('a', answered));
    reads.push(read('b', answered), read('c', answered));
    assert.equal(app.ctx.reads.queued, MAX_READS_PER_CALLER + 1, 'all but a\'s first read wait for the one worker');
    await Promise.all(reads);
    // On main the oldest read went first: a's whole backlog, then b, then c.
    assert.deepEqual(answered, ['a', 'b', 'c', ...Array.from({ length: MAX_READS_PER_CALLER - 1 }, () => 'a')]);
  });

  it('takes callers in turn while several keep a backlog', async () => {
    const answered: string[] = [];
    await Promise.all(['a', 'a', 'a', 'b', 'b', 'b'].map((caller) => read(caller, answered)));
    assert.deepEqual(answered, ['a', 'b', 'a', 'b', 'a', 'b']);
  });

  it('answers 429 with Retry-After past a caller\'s backlog, and only to that caller', async () => {
    const answered: string[] = [];
    const refused: { caller: string; error: AppError }[] = [];
    const reads = Array.from({ length: MAX_READS_PER_CALLER + 2 }, () => read('greedy', answered, refused));
    reads.push(read('modest', answered, refused));
    await Promise.all(reads);
    assert.deepEqual(refused.map((r) => [r.caller, r.error.code, r.error.status, r.error.headers['Retry-After']]), [
      ['greedy', 'too_many_requests', 429, '1'],
      ['greedy', 'too_many_requests', 429, '1'],
    ]);
    assert.equal(answered.filter((caller) => caller === 'greedy').length, MAX_READS_PER_CALLER);
    assert.equal(answered.indexOf('modest'), 1, 'the modest caller\'s read went right after the first greedy one');
  });

  it('when the queue is full, refuses (503) callers who already wait, never a caller\'s first read', async () => {
    const answered: string[] = [];
    const refused: { caller: string; error: AppError }[] = [];
    const heavy = ['h1', 'h2', 'h3'];
    const reads = heavy.flatMap((caller) => Array.from({ length: MAX_READS_PER_CALLER }, () => read(caller, answered, refused)));
    reads.push(read('light', answered, refused));
    await Promise.all(reads);
    assert.ok(refused.length > 0, 'three full backlogs fill the queue of one worker');
    assert.ok(refused.every((r) => heavy.includes(r.caller) && r.error.code === 'unavailable' && r.error.headers['Retry-After'] === '1'), JSON.stringify(refused));
    assert.ok(answered.includes('light'));
    assert.ok(answered.indexOf('light') <= heavy.length, `the light read waited behind ${answered.indexOf('light')} heavy ones`);
  });

  it('drops the waiting reads whose clients have gone: they neither run nor fill the queue (issue 42)', async () => {
    const answered: string[] = [];
    const refused: { caller: string; error: AppError }[] = [];
    // Two callers' full backlogs, as a load generator leaves them when its run ends and it closes its connections…
    let left = false;
    const gone = () => left;
    const reads = ['x', 'y'].flatMap((caller) => Array.from({ length: MAX_READS_PER_CALLER }, () => read(caller, answered, refused, gone)));
    left = true;
    // …then the next run's caller asks twice: with the queue full of reads for nobody, the second was refused 503.
    reads.push(read('z', answered, refused), read('z', answered, refused));
    await Promise.all(reads);
    assert.deepEqual(answered.filter((caller) => caller === 'z'), ['z', 'z']);
    // Only x's first read ran (it had a worker before its client left); every other read of theirs was dropped unrun.
    assert.deepEqual(answered.filter((caller) => caller !== 'z'), ['x']);
    assert.equal(refused.length, 2 * MAX_READS_PER_CALLER - 1);
    assert.ok(refused.every((r) => r.caller !== 'z' && r.error.code === 'unavailable'), JSON.stringify(refused));
    assert.equal(app.ctx.reads.queued, 0);
  });
});
