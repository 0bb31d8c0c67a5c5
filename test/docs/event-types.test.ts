// The event types are one closed table (src/modules/events/types.ts): docs/events.md shows it as it is,
// every entry is recorded somewhere, record() refuses anything else, and GET /events filters only on it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EVENTS_PAGE, eventTypesTable } from '../../src/dev/event-types-table.ts';
import { EVENT_TYPE_NAMES, type EventType } from '../../src/modules/events/types.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/fixtures.ts';
import { errorPaths } from '../helpers/errors.ts';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('event types', () => {
  let app: TestApp;
  before(async () => (app = await startTestApp()));
  after(() => app.close());

  it('docs/events.md shows the table made from src/modules/events/types.ts (run `npm run docs:events` after changing it)', () => {
    assert.ok(readFileSync(EVENTS_PAGE, 'utf8').includes(eventTypesTable()), 'docs/events.md event-type table is stale: run `npm run docs:events`');
  });

  it('lists only types some code records, each once, spelled in capitals', () => {
    const code = sources(SRC).filter((file) => !file.endsWith(join('events', 'types.ts'))).map((file) => readFileSync(file, 'utf8')).join('\n');
    const unused = EVENT_TYPE_NAMES.filter((type) => !code.includes(`'${type}'`));
    assert.deepEqual(unused, [], 'event types in the table that no code records');
    assert.equal(new Set(EVENT_TYPE_NAMES).size, EVENT_TYPE_NAMES.length);
    for (const type of EVENT_TYPE_NAMES) assert.match(type, /^[A-Z]+(_[A-Z]+)+$/);
  });

  it('record() refuses a type outside the table, and writes nothing', () => {
    const before = app.ctx.db.prepare('SELECT count(*) FROM events').pluck().get();
    const actor = { userId: app.adminUserId, name: 'Admin', email: 'admin@gatehouse.local', tokenLabel: null, tokenPreview: null, ip: null };
    assert.throws(() => app.ctx.stores.events.record(actor, 'USERS_INVENTED' as EventType, []), /unknown event type USERS_INVENTED/);
    assert.equal(app.ctx.db.prepare('SELECT count(*) FROM events').pluck().get(), before);
  });

  it('event_type_filter takes a known type in any letter case and refuses an unknown one, naming the field', async () => {
    const user = await createUser(app.api);
    for (const spelling of ['USERS_CREATED', 'users_created', ' Users_Created ']) {
      const res = await app.api.get('/events', { event_type_filter: spelling, object_filter: user.user_id });
      assert.equal(res.status, 200, spelling);
      assert.deepEqual(res.body.results.map((e: { event_type: string }) => e.event_type), ['USERS_CREATED'], spelling);
    }
    for (const bad of ['USER_CREATED', 'RARE_EVENT', '%']) {
      const res = await app.api.get('/events', { event_type_filter: bad });
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.code, 'validation_failed');
      assert.deepEqual(errorPaths(res.body), ['event_type_filter'], bad);
      assert.match(res.body.details[0].message, /docs\/events\.md/);
    }
  });
});
