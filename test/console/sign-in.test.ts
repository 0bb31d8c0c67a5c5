// Console sign-in without an identity provider: one-time links from the CLI, the session cookie,
// CSRF-safe writes through /v1, lifetimes, offboarding and demotion, sign-out, and a person's own sessions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { cli } from '../helpers/cli.ts';
import { openLink, openLinkPage, postLinkForm, sessionCookieOf, signIn, useLink } from '../helpers/console.ts';
import { createAdmin, createMember, createUser } from '../helpers/fixtures.ts';

const MINUTE = 60_000;

describe('console sign-in', () => {
  let app: TestApp;
  let origin: string;
  before(async () => {
    app = await startTestApp();
    origin = new URL(app.url).origin;
  });
  after(() => app.close());

  it('login-link prints one URL; opening it signs in once (HttpOnly, SameSite=Lax) and lands on /console; a replay is refused in words', async () => {
    const member = await createUser(app.api);
    const run = await cli(['login-link', '--email', member.email, '--db', app.dbFile], { GATEHOUSE_PUBLIC_URL: origin, GATEHOUSE_LOG_LEVEL: 'silent' });
    assert.equal(run.code, 0);
    const lines = run.stdout.split('\n');
    assert.equal(lines.length, 2, run.stdout);
    assert.equal(lines[1], '');
    const link = lines[0]!;
    assert.match(link, new RegExp(`^${origin}/console/sign-in/ghl_[\\w-]{43}$`));
    // Only a hash is stored.
    const secret = link.slice(link.lastIndexOf('/') + 1);
    const stored = app.ctx.db.prepare('SELECT count(*) AS n FROM login_links WHERE instr(CAST(secret_hash AS TEXT), ?) > 0').get(secret) as { n: number };
    assert.equal(stored.n, 0);

    const first = await useLink(link);
    assert.equal(first.status, 303);
    assert.equal(first.headers.get('location'), '/console');
    const setCookie = first.headers.getSetCookie();
    assert.match(setCookie.find((c) => c.startsWith('gatehouse_session='))!, /^gatehouse_session=ghs_[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200$/);
    assert.doesNotMatch(setCookie.join('\n'), /Secure/, 'plain http to the service itself: no Secure flag');
    assert.ok(setCookie.some((c) => /^gatehouse_sign_in=; .*Max-Age=0/.test(c)), 'the form\'s cookie is cleared');

    const replay = await openLink(link);
    assert.equal(replay.status, 401);
    assert.match(replay.headers.get('content-type')!, /^text\/html/);
    assert.match(await replay.text(), /already used/);
    assert.equal(sessionCookieOf(replay), undefined);
  });

  it('opening a link (GET or HEAD, as mail scanners do) only shows whom it signs in; only its page\'s POST, from this browser, spends it', async () => {
    const member = await createUser(app.api, { full_name: 'Lin <Link> Reader' });
    const user = app.ctx.stores.users.getByEmail(member.email)!;
    const { createLoginLink } = await import('../../src/modules/web-sessions/service.ts');
    const link = createLoginLink(app.ctx, user).replace(/^http:\/\/[^/]+/, origin);
    const sessionsOf = () => (app.ctx.db.prepare('SELECT count(*) AS n FROM web_sessions WHERE user_id = ?').get(member.user_id) as { n: number }).n;

    const head = await fetch(link, { method: 'HEAD', redirect: 'manual' });
    assert.equal(head.status, 200);
    assert.equal(sessionCookieOf(head), undefined);
    const opened = await openLinkPage(link);
    assert.equal(opened.res.status, 200);
    assert.match(opened.html, /Sign in as Lin &#60;Link&#62; Reader/);
    assert.match(opened.html, /<form method="post" action="\/console\/sign-in\/ghl_/);
    assert.equal(sessionCookieOf(opened.res), undefined);
    assert.match(opened.res.headers.getSetCookie().join('\n'), /^gatehouse_sign_in=[\w-]{43}; Path=\/console\/sign-in; HttpOnly; SameSite=Strict; Max-Age=900$/m);
    const again = await openLinkPage(link);
    assert.equal(again.res.status, 200, 'opening it again finds it unused');

    // Forged posts: from another site, without this browser's cookie, with another token, without any origin.
    const forged: [string, Response][] = [
      ['foreign origin', await postLinkForm(link, opened, { origin: 'https://evil.example' })],
      ['no cookie', await postLinkForm(link, opened, { cookie: undefined })],
      ['another browser\'s token', await postLinkForm(link, { token: again.token, cookie: opened.cookie })],
      ['no origin or referer', await postLinkForm(link, opened, { origin: undefined })],
    ];
    for (const [why, res] of forged) {
      assert.equal(res.status, 403, why);
      assert.match(res.headers.get('content-type')!, /^text\/html/, why);
      assert.equal(sessionCookieOf(res), undefined, why);
    }
    assert.equal(sessionsOf(), 0, 'nothing but the page\'s own POST starts a session');

    const used = await postLinkForm(link, again);
    assert.equal(used.status, 303);
    assert.ok(sessionCookieOf(used));
    assert.equal(sessionsOf(), 1);
    assert.equal((await postLinkForm(link, opened)).status, 401, 'a link works once');
  });

  it('an expired or unknown link is refused in words; an offboarded user gets no link', async () => {
    const member = await createUser(app.api);
    const user = app.ctx.stores.users.getByEmail(member.email)!;
    const { createLoginLink } = await import('../../src/modules/web-sessions/service.ts');
    const link = createLoginLink(app.ctx, user).replace(/^http:\/\/[^/]+/, origin);
    app.clock.advance(16 * MINUTE);
    const expired = await openLink(link);
    assert.equal(expired.status, 401);
    assert.match(await expired.text(), /expired/);
    const unknown = await openLink(`${origin}/console/sign-in/ghl_nothing`);
    assert.equal(unknown.status, 401);
    assert.match(await unknown.text(), /not valid/);

    assert.equal((await app.api.put(`/users/${member.user_id}`, { hr_idp_status: 'SUSPENDED' })).status, 200);
    const refused = await cli(['login-link', '--email', member.email, '--db', app.dbFile], { GATEHOUSE_LOG_LEVEL: 'silent' });
    assert.notEqual(refused.code, 0);
    assert.equal(refused.stdout, '');
  });

  it('calls /v1 with the session: writes need the CSRF token and our own Origin or Referer; events name the person and the console', async () => {
    const member = await createMember(app.api);
    const session = await signIn(app, member.user.email);
    const read = await session.withHeaders({ origin: undefined, 'x-csrf-token': undefined }).get('/tokens');
    assert.equal(read.status, 200, 'reads need no CSRF token');

    const body = { token_label: 'from the console' };
    const noToken = await session.withHeaders({ 'x-csrf-token': undefined }).post('/tokens', body);
    assert.equal(noToken.status, 403);
    assert.match(noToken.body.message, /CSRF token/);
    const wrongToken = await session.withHeaders({ 'x-csrf-token': 'x'.repeat(43) }).post('/tokens', body);
    assert.equal(wrongToken.status, 403);
    const foreign = await session.withHeaders({ origin: 'https://evil.example' }).post('/tokens', body);
    assert.equal(foreign.status, 403);
    assert.match(foreign.body.message, /Origin or Referer/);
    const neither = await session.withHeaders({ origin: undefined }).post('/tokens', body);
    assert.equal(neither.status, 403);
    const byReferer = await session.withHeaders({ origin: undefined, referer: `${origin}/console/account` }).post('/tokens', body);
    assert.equal(byReferer.status, 200, JSON.stringify(byReferer.body));
    const refused = (await app.api.get('/tokens', { user_id: member.user.user_id })).body.results.filter((t: { token_label: string }) => t.token_label === body.token_label);
    assert.equal(refused.length, 1, 'only the one write that passed the checks happened');

    const events = await app.api.get('/events', { event_type_filter: 'API_TOKENS_CREATED', actor_filter: member.user.user_id });
    const event = events.body.results[0];
    assert.equal(event.actor_user_id, member.user.user_id);
    assert.equal(event.actor_name, member.user.full_name);
    assert.equal(event.api_token_name, 'console');
    assert.match(event.api_token_preview, /^session [0-9a-f]{8}$/);
  });

  it('keeps the role policy: a member\'s session cannot make admin writes or read the audit trail', async () => {
    const member = await createMember(app.api);
    const session = await signIn(app, member.user.email);
    assert.equal((await session.post('/users', { email: 'x@example.com', full_name: 'X' })).status, 403);
    assert.equal((await session.get('/events')).status, 403);
  });

  it('ends after the idle limit and at the absolute limit, and says so', async () => {
    const member = await createMember(app.api);
    const idle = await signIn(app, member.user.email);
    app.clock.advance(61 * MINUTE);
    const gone = await idle.get('/tokens');
    assert.equal(gone.status, 401);
    assert.match(gone.body.message, /idle/);

    const busy = await signIn(app, member.user.email);
    for (let i = 0; i < 16; i++) {
      app.clock.advance(50 * MINUTE);
      if ((await busy.get('/tokens')).status !== 200) break;
    }
    const expired = await busy.get('/tokens');
    assert.equal(expired.status, 401);
    assert.match(expired.body.message, /time limit/);
  });

  it('ends when the user is offboarded, and an admin\'s session when they are demoted; both recorded', async () => {
    const member = await createMember(app.api);
    const session = await signIn(app, member.user.email);
    assert.equal((await app.api.put(`/users/${member.user.user_id}`, { hr_idp_status: 'DEPROVISIONED' })).status, 200);
    const offboarded = await session.get('/tokens');
    assert.equal(offboarded.status, 401);
    assert.match(offboarded.body.message, /offboarded/);

    const admin = await createAdmin(app.api);
    const adminSession = await signIn(app, admin.user.email);
    assert.equal((await adminSession.get('/events')).status, 200);
    assert.equal((await app.api.put(`/users/${admin.user.user_id}`, { organization_role: 'MEMBER' })).status, 200);
    const demoted = await adminSession.get('/tokens');
    assert.equal(demoted.status, 401);
    assert.match(demoted.body.message, /role changed/);

    const ended = await app.api.get('/events', { event_type_filter: 'WEB_SESSIONS_ENDED' });
    const reasons = ended.body.results.map((e: { sub_events: { end_reason: string; user_id: string }[] }) => `${e.sub_events[0]!.user_id} ${e.sub_events[0]!.end_reason}`);
    assert.ok(reasons.includes(`${member.user.user_id} OFFBOARDED`), reasons.join());
    assert.ok(reasons.includes(`${admin.user.user_id} DEMOTED`), reasons.join());
  });

  it('offboarding ends sessions and tokens at once and for good, and demotion an admin\'s sessions: re-activating or re-promoting brings none back', async () => {
    const member = await createMember(app.api);
    const session = await signIn(app, member.user.email);
    assert.equal((await member.api.get('/tokens')).status, 200);
    // Suspended and re-activated before the session or the token is used again.
    assert.equal((await app.api.put(`/users/${member.user.user_id}`, { hr_idp_status: 'SUSPENDED' })).status, 200);
    assert.equal((await app.api.put(`/users/${member.user.user_id}`, { hr_idp_status: 'ACTIVE' })).status, 200);
    const revived = await session.get('/tokens');
    assert.equal(revived.status, 401);
    assert.match(revived.body.message, /offboarded/);
    assert.equal((await member.api.get('/tokens')).status, 401, 'the token works again after re-activation');
    assert.equal((await app.api.get('/tokens', { user_id: member.user.user_id })).body.results.length, 0);

    const admin = await createAdmin(app.api);
    const adminSession = await signIn(app, admin.user.email);
    assert.equal((await app.api.put(`/users/${admin.user.user_id}`, { organization_role: 'MEMBER' })).status, 200);
    assert.equal((await app.api.put(`/users/${admin.user.user_id}`, { organization_role: 'ADMIN' })).status, 200);
    const repromoted = await adminSession.get('/events');
    assert.equal(repromoted.status, 401);
    assert.match(repromoted.body.message, /role changed/);
    assert.equal((await admin.api.get('/events')).status, 200, 'demotion leaves tokens: they carry the user\'s role of the moment');

    // Each ending recorded when it happened, by whoever offboarded or demoted them.
    const ended = (await app.api.get('/events', { event_type_filter: 'WEB_SESSIONS_ENDED' })).body.results as { actor_user_id: string; sub_events: { user_id: string; end_reason: string }[] }[];
    const endedFor = (userId: string) => ended.filter((e) => e.sub_events.some((sub) => sub.user_id === userId));
    assert.deepEqual(endedFor(member.user.user_id).map((e) => [e.actor_user_id, e.sub_events.map((sub) => sub.end_reason)]), [[app.adminUserId, ['OFFBOARDED']]]);
    assert.deepEqual(endedFor(admin.user.user_id).map((e) => [e.actor_user_id, e.sub_events.map((sub) => sub.end_reason)]), [[app.adminUserId, ['DEMOTED']]]);
    const deleted = (await app.api.get('/events', { event_type_filter: 'API_TOKENS_DELETED' })).body.results as { sub_events: { user_id: string; token_id: string }[] }[];
    assert.ok(deleted.some((e) => e.sub_events.some((sub) => sub.user_id === member.user.user_id && sub.token_id === member.tokenId)));
  });

  it('lets a person list and revoke their own sessions (not others\'), and sign out', async () => {
    const member = await createMember(app.api);
    const other = await createMember(app.api);
    const first = await signIn(app, member.user.email);
    const second = await signIn(app, member.user.email);
    const theirs = await signIn(app, other.user.email);

    const mine = await first.get('/web-sessions');
    assert.equal(mine.status, 200);
    assert.equal(mine.body.results.length, 2);
    assert.ok(mine.body.results.every((s: { user_id: string }) => s.user_id === member.user.user_id));
    const snooping = await first.get('/web-sessions', { user_id: other.user.user_id });
    assert.deepEqual(snooping.body.results, []);
    const otherId = (await theirs.get('/web-sessions')).body.results[0].web_session_id;
    assert.equal((await first.delete(`/web-sessions/${otherId}`)).status, 403);

    const secondId = (await app.ctx.stores.webSessions.listLive({ userId: member.user.user_id, now: app.clock.now().toISOString(), idleSince: '0' }, null, 10))
      .map((s) => s.id);
    const revoke = await first.delete(`/web-sessions/${secondId[1]}`);
    assert.equal(revoke.status, 200);
    assert.equal((await second.get('/tokens')).status, 401);
    assert.equal((await first.get('/tokens')).status, 200);

    const out = await fetch(`${origin}/console/sign-out`, { method: 'POST', headers: { cookie: first.cookieHeader, origin, 'x-csrf-token': first.csrf } });
    assert.equal(out.status, 200);
    assert.match(out.headers.getSetCookie()[0]!, /^gatehouse_session=; .*Max-Age=0/);
    assert.equal((await first.get('/tokens')).status, 401);
    const forged = await fetch(`${origin}/console/sign-out`, { method: 'POST', headers: { cookie: theirs.cookieHeader, origin: 'https://evil.example' } });
    assert.equal(forged.status, 403);
    assert.equal((await theirs.get('/tokens')).status, 200);
  });
});

describe('console cookie behind a TLS-terminating proxy', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { GATEHOUSE_TRUSTED_PROXIES: '127.0.0.1' } });
  });
  after(() => app.close());

  it('is Secure when a trusted proxy says the browser came over https, and not otherwise', async () => {
    const member = await createUser(app.api);
    const { createLoginLink } = await import('../../src/modules/web-sessions/service.ts');
    const user = app.ctx.stores.users.getByEmail(member.email)!;
    const origin = new URL(app.url).origin;
    const viaTls = await openLink(createLoginLink(app.ctx, user).replace(/^http:\/\/[^/]+/, origin), { 'x-forwarded-proto': 'https' });
    assert.match(viaTls.headers.getSetCookie()[0]!, /; Secure;/);
    const plain = await openLink(createLoginLink(app.ctx, user).replace(/^http:\/\/[^/]+/, origin));
    assert.doesNotMatch(plain.headers.getSetCookie()[0]!, /Secure/);
  });
});
