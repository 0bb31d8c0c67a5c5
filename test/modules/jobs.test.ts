// The background-job runner (src/jobs.ts): a tick that returns a promise is waited for, so ticks never
// overlap; one that fails is logged and the schedule goes on; stopping aborts the tick in flight and
// waits for it to settle before the database may close.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startJobs, type Job } from '../../src/jobs.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { until } from '../helpers/wait.ts';

describe('background jobs', () => {
  let app: TestApp;
  before(async () => (app = await startTestApp()));
  after(() => app.close());

  it('waits for an async tick before scheduling the next, logs a failure and keeps going, and stop waits for the tick in flight', async () => {
    let running = 0;
    let overlapped = false;
    let ticks = 0;
    let finishLast!: () => void;
    let abortedInTick = false;
    const job: Job = {
      name: 'test-async-job',
      everyMs: () => 1,
      async tick(_ctx, _now, stop) {
        running += 1;
        overlapped ||= running > 1;
        ticks += 1;
        try {
          if (ticks === 2) throw new Error('tick two fails');
          if (ticks >= 4) {
            // Held until stopped: stop must abort it and wait.
            await new Promise<void>((resolve) => {
              finishLast = resolve;
              stop.addEventListener('abort', () => ((abortedInTick = true), resolve()));
            });
          } else {
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
        } finally {
          running -= 1;
        }
      },
    };
    startJobs(app.ctx, [job]);
    await until(() => ticks >= 4 && finishLast !== undefined, 'four ticks');
    assert.equal(overlapped, false);
    assert.ok(app.logs.some((l) => l.msg === 'background job failed' && l.job === 'test-async-job' && l.error === 'tick two fails'));
    const failures = await app.ctx.jobs.stopAll();
    assert.deepEqual(failures, []);
    assert.equal(abortedInTick, true);
    assert.equal(running, 0, 'stopAll resolved only after the tick settled');
    const count = ticks;
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(ticks, count, 'no tick after stop');
  });

  it('reads a job\'s interval from the settings in effect at each pause, so one set on the Settings page applies without a restart', async () => {
    const seen: number[] = [];
    let ticks = 0;
    const job: Job = {
      name: 'test-interval-job',
      // The notification job's own interval setting: what the Settings page changes.
      everyMs: (config) => (seen.push(config.notifyIntervalMs), 1),
      tick() {
        ticks += 1;
      },
    };
    startJobs(app.ctx, [job]);
    await until(() => ticks >= 1, 'a first tick');
    const res = await app.api.patch('/settings', { settings: { GATEHOUSE_NOTIFY_INTERVAL_MS: '1234' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const after = ticks;
    await until(() => ticks >= after + 2, 'two ticks after the change');
    await app.ctx.jobs.stopAll();
    assert.equal(seen[0], 5000);
    assert.equal(seen.at(-1), 1234, `the intervals read: ${seen.join(', ')}`);
  });
});
