// Accept what the reference accepts, refuse what is not valid: date forms, impossible dates, the
// bytes and headers of a body (UTF-8, charset, Content-Encoding), a deprecated access_level_name.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createBundle, createResource, createUser, unique } from '../helpers/fixtures.ts';
import { errorPaths } from '../helpers/errors.ts';

describe('client inputs', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  const eventsOf = async (query: Record<string, string>) => {
    const res = await app.api.get('/events', { ...query, page_size: 1000 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.results as { event_id: string; created_at: string }[];
  };

  describe('date filters', () => {
    it('accept the reference example form (space, offset) beside T…Z, meaning the same instant', async () => {
      app.clock.set('2026-03-02T10:00:00.000Z');
      await createUser(app.api);
      const forms = [
        '2026-03-02T10:00:00Z',
        '2026-03-02 10:00:00+00:00',
        '2026-03-02 11:00:00+01:00',
        '2026-03-02T05:00:00-05:00',
        '2026-03-02T10:00:00.000z',
        '2026-03-02 11:00:00 01:00', // an unencoded + arrives as a space
        '2026-03-02T10:00Z',
      ];
      const expected = await eventsOf({ start_date_filter: forms[0]!, end_date_filter: forms[0]! });
      assert.equal(expected.length, 1);
      for (const form of forms) {
        assert.deepEqual(await eventsOf({ start_date_filter: form, end_date_filter: form }), expected, form);
      }
      const wholeDay = await eventsOf({ start_date_filter: '2026-03-02', end_date_filter: '2026-03-02' });
      assert.ok(wholeDay.some((e) => e.event_id === expected[0]!.event_id));
    });

    it('refuse impossible dates and times instead of rolling them over', async () => {
      for (const raw of ['2026-02-30', '2026-04-31', '2026-02-29', '2026-13-01', '2026-00-10', '2026-03-01T24:00:00Z',
        '2026-03-01T10:60:00Z', '2026-03-01T10:00:60Z', '2026-03-01T10:00:00+24:00', '2026-03-01T10:00:00', 'yesterday', '2026-3-1']) {
        for (const field of ['start_date_filter', 'end_date_filter']) {
          const res = await app.api.get('/events', { [field]: raw });
          assert.equal(res.status, 400, `${field}=${raw}`);
          assert.deepEqual(errorPaths(res.body), [field]);
          assert.ok(res.body.message.startsWith('invalid query: '));
        }
      }
      assert.equal((await app.api.get('/events', { start_date_filter: '2024-02-29' })).status, 200, 'a leap day exists');
    });
  });

  describe('request bodies', () => {
    const countUsers = async () => (await app.api.get('/users', { page_size: 1000 })).body.results.length as number;

    it('a body that is not valid UTF-8 → 400, nothing stored', async () => {
      const before = await countUsers();
      const valid = Buffer.from(JSON.stringify({ email: `${unique('u')}@example.com`, full_name: 'AB' }));
      const broken = Buffer.from(valid.toString('latin1').replace('AB', 'A\u00ffB'), 'latin1'); // a lone 0xFF byte
      const res = await app.api.post('/users', undefined, { rawBody: broken, headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'invalid_json');
      assert.match(res.body.message, /UTF-8/);
      assert.equal(await countUsers(), before);
    });

    it('UTF-8 with or without a charset parameter is accepted, multi-byte text intact', async () => {
      for (const type of ['application/json', 'application/json; charset=utf-8', 'application/json;charset="UTF-8"', 'application/json; charset=utf8']) {
        const name = `Zoë ${unique('n')} 日本`;
        const res = await app.api.post('/users', undefined, {
          rawBody: Buffer.from(JSON.stringify({ email: `${unique('u')}@example.com`, full_name: name }), 'utf8'),
          headers: { 'content-type': type },
        });
        assert.equal(res.status, 200, type);
        assert.equal(res.body.full_name, name);
      }
    });

    it('a name with a control character, or any text with NUL, → 400 naming the field, nothing stored; line breaks in a description are fine', async () => {
      const countOwners = async () => (await app.api.get('/owners', { page_size: 1000 })).body.results.length as number;
      const before = await countOwners();
      for (const [body, path] of [
        [{ name: 'a\u0000b' }, 'name'],
        [{ name: 'two\nlines' }, 'name'],
        [{ name: 'tab\there' }, 'name'],
        [{ name: 'ok', description: 'nul \u0000 inside' }, 'description'],
      ] as const) {
        const res = await app.api.post('/owners', { user_ids: [], ...body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.deepEqual(errorPaths(res.body), [path], JSON.stringify(body));
      }
      assert.equal(await countOwners(), before);
      const fine = await app.api.post('/owners', { user_ids: [], name: `  ${unique('owner')}  `, description: 'first line\nsecond\tline' });
      assert.equal(fine.status, 200, JSON.stringify(fine.body));
      assert.equal(fine.body.description, 'first line\nsecond\tline');
    });

    it('a charset other than UTF-8 → 415, nothing stored', async () => {
      const before = await countUsers();
      for (const charset of ['iso-8859-1', 'utf-16', 'windows-1252']) {
        const res = await app.api.post('/users', undefined, {
          rawBody: JSON.stringify({ email: `${unique('u')}@example.com`, full_name: 'Latin' }),
          headers: { 'content-type': `application/json; charset=${charset}` },
        });
        assert.equal(res.status, 415, charset);
        assert.equal(res.body.code, 'unsupported_media_type');
      }
      assert.equal(await countUsers(), before);
    });

    it('a Content-Encoding Gatehouse does not decode → 415; identity is fine', async () => {
      const before = await countUsers();
      for (const encoding of ['gzip', 'br', 'deflate', 'x-custom']) {
        const res = await app.api.post('/users', undefined, {
          rawBody: JSON.stringify({ email: `${unique('u')}@example.com`, full_name: 'Zipped' }),
          headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        });
        assert.equal(res.status, 415, encoding);
        assert.match(res.body.message, /Content-Encoding/);
      }
      assert.equal(await countUsers(), before);
      const identity = await app.api.post('/users', undefined, {
        rawBody: JSON.stringify({ email: `${unique('u')}@example.com`, full_name: 'Plain' }),
        headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
      });
      assert.equal(identity.status, 200);
    });
  });

  it('POST /bundles/{id}/resources accepts an access_level_name that differs from the stored one; the stored name wins', async () => {
    const bundle = await createBundle(app.api);
    const resource = await createResource(app.api, { access_levels: [{ access_level_name: 'Reader', access_level_remote_id: 'read' }] });
    const res = await app.api.post(`/bundles/${bundle.bundle_id}/resources`, { resource_id: resource.resource_id, access_level_remote_id: 'read', access_level_name: 'Viewer' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.access_level_name, 'Reader');
    const other = await app.api.post(`/bundles/${bundle.bundle_id}/resources`, { resource_id: resource.resource_id, access_level_name: 'Default' });
    assert.equal(other.status, 201, JSON.stringify(other.body));
    assert.deepEqual([other.body.access_level_remote_id, other.body.access_level_name], ['', '']);
  });
});
