// API tokens through HTTP: issuing, listing with filters, deleting.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createToken, createUser, NO_SUCH_ID } from '../helpers/fixtures.ts';

describe('tokens', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it('issues a token whose secret is shown once and works, and lists it without the secret', async () => {
    const res = await app.api.post('/tokens', { token_label: 'deploy', access_level: 'READ_ONLY' });
    assert.equal(res.status, 200);
    assert.match(res.body.token, /^gth_[A-Za-z0-9_-]{32}$/);
    assert.equal(res.body.access_level, 'READ_ONLY');
    assert.equal(res.body.user_id, app.adminUserId);
    assert.equal(res.body.creator_user_id, app.adminUserId);
    assert.equal(res.body.created_at, app.clock.now().toISOString());

    const listed = await app.api.get('/tokens', { token_ids: res.body.token_id });
    assert.equal(listed.body.results.length, 1);
    const { token: _secret, ...withoutSecret } = res.body;
    assert.deepEqual(listed.body.results[0], withoutSecret);
    assert.equal(JSON.stringify(listed.body).includes(res.body.token), false);
  });

  it('filters by token ids (comma-separated or repeated) and by user', async () => {
    const someone = await createUser(app.api);
    const a = await createToken(app.api, { user_id: someone.user_id });
    const b = await createToken(app.api, { user_id: someone.user_id });
    const c = await createToken(app.api);

    const commas = await app.api.get('/tokens', { token_ids: `${a.tokenId},${c.tokenId}` });
    assert.deepEqual(commas.body.results.map((t: { token_id: string }) => t.token_id), [a.tokenId, c.tokenId]);
    const repeated = await app.api.get('/tokens', { token_ids: [b.tokenId, c.tokenId] });
    assert.deepEqual(repeated.body.results.map((t: { token_id: string }) => t.token_id), [b.tokenId, c.tokenId]);
    const mine = await app.api.get('/tokens', { user_id: someone.user_id });
    assert.deepEqual(mine.body.results.map((t: { token_id: string }) => t.token_id), [a.tokenId, b.tokenId]);
    assert.ok(mine.body.results.every((t: { creator_user_id: string }) => t.creator_user_id === app.adminUserId));

    const bad = await app.api.get('/tokens', { token_ids: `${a.tokenId},nope` });
    assert.equal(bad.status, 400);
    assert.match(bad.body.details[0].path, /^token_ids/);
  });

  it('shows a member only their own tokens; an admin sees everyone\'s', async () => {
    const [member, other] = [await createUser(app.api), await createUser(app.api)];
    const own = await createToken(app.api, { user_id: member.user_id });
    const theirs = await createToken(app.api, { user_id: other.user_id });
    const asMember = app.api.as(own.secret);
    const ids = async (query: Record<string, string> = {}) =>
      (await asMember.get('/tokens', { page_size: 1000, ...query })).body.results.map((t: { token_id: string }) => t.token_id);
    assert.deepEqual(await ids(), [own.tokenId]);
    assert.deepEqual(await ids({ user_id: other.user_id }), []);
    assert.deepEqual(await ids({ token_ids: theirs.tokenId }), []);
    assert.deepEqual(await ids({ user_id: member.user_id }), [own.tokenId]);
    const all = (await app.api.get('/tokens', { page_size: 1000 })).body.results.map((t: { token_id: string }) => t.token_id);
    assert.ok(all.includes(own.tokenId) && all.includes(theirs.tokenId));
  });

  it('refuses a token for an unknown user and an unknown access level', async () => {
    const unknownUser = await app.api.post('/tokens', { token_label: 'x', user_id: NO_SUCH_ID });
    assert.equal(unknownUser.status, 404);
    assert.equal(unknownUser.body.details[0].path, 'user_id');
    const badLevel = await app.api.post('/tokens', { token_label: 'x', access_level: 'ADMIN' });
    assert.equal(badLevel.status, 400);
    assert.equal(badLevel.body.details[0].path, 'access_level');
    const noLabel = await app.api.post('/tokens', {});
    assert.equal(noLabel.status, 400);
    assert.equal(noLabel.body.details[0].path, 'token_label');
  });

  it('deletes a token once, records it, then answers 404', async () => {
    const { tokenId } = await createToken(app.api, { token_label: 'short-lived' });
    assert.deepEqual((await app.api.delete(`/tokens/${tokenId}`)).body, {});
    assert.equal((await app.api.get('/tokens', { token_ids: tokenId })).body.results.length, 0);
    assert.equal((await app.api.delete(`/tokens/${tokenId}`)).status, 404);
    const events = await app.api.get('/events', { object_filter: tokenId });
    assert.deepEqual(events.body.results.map((e: { event_type: string }) => e.event_type), ['API_TOKENS_DELETED', 'API_TOKENS_CREATED']);
    assert.equal(events.body.results[0].sub_events[0].token_label, 'short-lived');
  });
});
