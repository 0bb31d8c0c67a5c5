// Single sign-on against a real OpenID provider (oidc-provider) on loopback: authorization code with
// PKCE, users matched by verified email, optional MEMBER creation, offboarded and unknown people refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { OIDC_STARTS_PER_MINUTE } from '../../src/modules/web-sessions/oidc.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { sessionClient, sessionCookieOf } from '../helpers/console.ts';
import { createUser } from '../helpers/fixtures.ts';
import { startTestProvider, type TestProvider } from '../helpers/oidc-provider.ts';

interface Outcome {
  /** Gatehouse's last answer: a 303 into the console, or a page saying why not. */
  final: Response;
  /** The provider's authorization URL Gatehouse sent the browser to. */
  authorizeUrl: URL;
  /** The callback URL the provider sent the browser back to. */
  callbackUrl: string;
  /** The cookies Gatehouse set in this browser on the way (the sign-in's state). */
  gatehouseCookie: string;
}

const cookieOf = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

/** Walks a browser's way through single sign-on with fetch: redirects, the provider's cookies, its login form. */
async function signInWithProvider(origin: string, login: string): Promise<Outcome> {
  const jar = new Map<string, string>();
  const ours = new Map<string, string>();
  let url = `${origin}/console/oidc/start?return_to=/console/access`;
  let authorizeUrl: URL | undefined;
  let callbackUrl = '';
  let init: RequestInit = {};
  for (let hop = 0; hop < 20; hop++) {
    const onProvider = !url.startsWith(origin);
    const cookie = [...(onProvider ? jar : ours)].map(([k, v]) => `${k}=${v}`).join('; ');
    if (url.startsWith(`${origin}/console/oidc/callback`)) callbackUrl = url;
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(cookie && { cookie }), ...(init.headers as Record<string, string>) } });
    init = {};
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(';');
      const eq = pair!.indexOf('=');
      (onProvider ? jar : ours).set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (location && res.status >= 300 && res.status < 400) {
      const next = new URL(location, url).href;
      if (!onProvider && !next.startsWith(origin)) authorizeUrl = new URL(next);
      if (!onProvider && next.startsWith(origin)) return { final: res, authorizeUrl: authorizeUrl!, callbackUrl, gatehouseCookie: cookieOf(ours) };
      url = next;
      continue;
    }
    if (!onProvider) return { final: res, authorizeUrl: authorizeUrl!, callbackUrl, gatehouseCookie: cookieOf(ours) };
    const page = await res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
    assert.ok(action && !page.includes('Unknown account'), `the provider answered ${res.status}: ${page.slice(0, 300)}`);
    url = new URL(action, url).href;
    init = { method: 'POST', body: new URLSearchParams({ login }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
  throw new Error('too many redirects');
}

describe('single sign-on through an OpenID provider', () => {
  let idp: TestProvider;
  let app: TestApp;
  let origin: string;
  before(async () => {
    idp = await startTestProvider();
    app = await startTestApp({ env: { GATEHOUSE_OIDC_ISSUER: idp.issuer, GATEHOUSE_OIDC_CLIENT_ID: idp.clientId, GATEHOUSE_OIDC_CLIENT_SECRET: idp.clientSecret } });
    origin = new URL(app.url).origin;
    idp.allowRedirects([`${origin}/console/oidc/callback`]);
  });
  after(async () => {
    await app?.close();
    await idp?.close();
  });

  it('signs a known person in by verified email (code flow with PKCE S256, state and nonce) and lands where they were going', async () => {
    const person = await createUser(app.api);
    idp.accounts.set(person.email, { email: person.email.toUpperCase(), email_verified: true, name: person.full_name });
    const { final, authorizeUrl, callbackUrl, gatehouseCookie } = await signInWithProvider(origin, person.email);
    assert.equal(authorizeUrl.origin, idp.issuer);
    assert.equal(authorizeUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.match(authorizeUrl.searchParams.get('code_challenge')!, /^[\w-]{43}$/);
    assert.ok(authorizeUrl.searchParams.get('state') && authorizeUrl.searchParams.get('nonce'));
    assert.equal(authorizeUrl.searchParams.get('redirect_uri'), `${origin}/console/oidc/callback`);
    assert.equal(final.status, 303, await final.clone().text());
    assert.equal(final.headers.get('location'), '/console/access');
    const cookie = sessionCookieOf(final);
    assert.ok(cookie);
    const session = await sessionClient(app, cookie);
    const mine = await session.get('/web-sessions');
    assert.equal(mine.body.results[0].user_id, person.user_id);
    assert.equal(mine.body.results[0].sign_in_method, 'OIDC');

    // The provider's redirect back works once, and only in the browser that started the sign-in.
    const replay = await fetch(callbackUrl, { redirect: 'manual', headers: { cookie: gatehouseCookie } });
    assert.equal(replay.status, 401);
    assert.match(await replay.text(), /already finished/);
    const elsewhere = await fetch(callbackUrl, { redirect: 'manual' });
    assert.equal(elsewhere.status, 401);
    assert.match(await elsewhere.text(), /not started in this browser/);
  });

  it('refuses an unknown email (creation off by default), an unverified email and an offboarded user, each in words', async () => {
    idp.accounts.set('stranger@example.com', { email: 'stranger@example.com', email_verified: true, name: 'Stranger' });
    const stranger = await signInWithProvider(origin, 'stranger@example.com');
    assert.equal(stranger.final.status, 403);
    assert.match(await stranger.final.text(), /no user with the email stranger@example.com/);
    assert.equal(app.ctx.stores.users.getByEmail('stranger@example.com'), undefined);

    const person = await createUser(app.api);
    idp.accounts.set(person.email, { email: person.email, email_verified: false, name: person.full_name });
    const unverified = await signInWithProvider(origin, person.email);
    assert.equal(unverified.final.status, 403);
    assert.match(await unverified.final.text(), /verified email/);

    idp.accounts.set(person.email, { email: person.email, email_verified: true, name: person.full_name });
    assert.equal((await app.api.put(`/users/${person.user_id}`, { hr_idp_status: 'SUSPENDED' })).status, 200);
    const offboarded = await signInWithProvider(origin, person.email);
    assert.equal(offboarded.final.status, 403);
    assert.match(await offboarded.final.text(), /offboarded/);
    assert.equal(sessionCookieOf(offboarded.final), undefined);
  });

  it('refuses an email claim with spaces around it rather than trimming it into someone else\'s address (issue 36.8)', async () => {
    const padded = ` ${'admin@gatehouse.local'} `;
    idp.accounts.set('padded-admin', { email: padded, email_verified: true, name: 'Not the admin' });
    const outcome = await signInWithProvider(origin, 'padded-admin');
    assert.equal(outcome.final.status, 403);
    assert.match(await outcome.final.text(), /spaces around it/);
    assert.equal(sessionCookieOf(outcome.final), undefined);
  });

  it('creates a MEMBER on first sign-in when GATEHOUSE_OIDC_CREATE_USERS is on', async () => {
    // The setting is read on every sign-in; this app's config object is the one loadConfig made.
    app.ctx.config.oidcCreateUsers = 'on';
    app.ctx.config.oidcAllowedDomains = ['example.com'];
    try {
      idp.accounts.set('newcomer@example.com', { email: 'newcomer@example.com', email_verified: true, name: 'New Comer' });
      const { final } = await signInWithProvider(origin, 'newcomer@example.com');
      assert.equal(final.status, 303);
      const user = app.ctx.stores.users.getByEmail('newcomer@example.com');
      assert.equal(user?.organization_role, 'MEMBER');
      assert.equal(user?.full_name, 'New Comer');
      const created = await app.api.get('/events', { event_type_filter: 'USERS_CREATED', object_filter: user!.user_id });
      assert.equal(created.body.results[0].api_token_name, 'console');
    } finally {
      app.ctx.config.oidcCreateUsers = 'off';
      app.ctx.config.oidcAllowedDomains = [];
    }
  });

  it('checks claims with the API\'s own rules and creates users only in the allowed domains, which creation needs', async () => {
    assert.throws(() => loadConfig({ GATEHOUSE_OIDC_CREATE_USERS: 'on' }), (err: unknown) => err instanceof ConfigError && /GATEHOUSE_OIDC_ALLOWED_DOMAINS/.test(err.message));
    assert.throws(() => loadConfig({ GATEHOUSE_OIDC_CREATE_USERS: 'on', GATEHOUSE_OIDC_ALLOWED_DOMAINS: 'example.com,not a domain' }), ConfigError);
    assert.deepEqual(loadConfig({ GATEHOUSE_OIDC_CREATE_USERS: 'on', GATEHOUSE_OIDC_ALLOWED_DOMAINS: ' Example.COM , example.org' }).oidcAllowedDomains, ['example.com', 'example.org']);

    app.ctx.config.oidcCreateUsers = 'on';
    app.ctx.config.oidcAllowedDomains = ['example.com'];
    try {
      const refused: [string, Record<string, unknown>, RegExp][] = [
        ['not-an-email', { email: 'not an email', name: 'Not Mail' }, /`email` claim cannot be used here \(must be an email address\)/],
        ['too-long', { email: `${'a'.repeat(390)}@example.com`, name: 'Long Mail' }, /`email` claim cannot be used here \(must be at most 320 characters\)/],
        ['not-a-string', { email: ['x@example.com'], name: 'Listed' }, /`email` claim/],
        ['crlf-email', { email: 'crlf@example.com\r\nBcc: x@example.com', name: 'Crlf' }, /`email` claim/],
        ['crlf-name', { email: 'crlf-name@example.com', name: 'Eve\r\nAdmin' }, /`name` claim cannot be used here \(must not contain control characters/],
        ['nul-name', { email: 'nul@example.com', name: 'Eve\u0000' }, /`name` claim cannot be used here \(must not contain a NUL character\)/],
        ['bel-name', { email: 'bel@example.com', name: 'Eve\u0007' }, /`name` claim cannot be used here \(must not contain control characters/],
        ['long-name', { email: 'long-name@example.com', name: 'n'.repeat(201) }, /`name` claim cannot be used here \(must be at most 200 characters\)/],
        ['outsider', { email: 'someone@elsewhere.example', name: 'Out Sider' }, /creates users only for the domains it is set to/],
        ['subdomain', { email: 'sub@mail.example.com', name: 'Sub Domain' }, /creates users only for the domains it is set to/],
      ];
      const users = () => (app.ctx.db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
      const before = users();
      for (const [login, claims, why] of refused) {
        idp.accounts.set(login, { email_verified: true, ...claims } as never);
        const { final } = await signInWithProvider(origin, login);
        assert.equal(final.status, 403, login);
        const page = await final.text();
        assert.match(page, why, login);
        assert.equal(sessionCookieOf(final), undefined, login);
      }
      assert.equal(users(), before, 'no claim that breaks the API\'s rules made a user');

      // A name the API takes is stored as it would be through the API (trimmed); `*` admits any domain.
      idp.accounts.set('spaced', { email: 'spaced@example.com', email_verified: true, name: '  Spaced Out  ' });
      assert.equal((await signInWithProvider(origin, 'spaced')).final.status, 303);
      assert.equal(app.ctx.stores.users.getByEmail('spaced@example.com')?.full_name, 'Spaced Out');
      app.ctx.config.oidcAllowedDomains = ['*'];
      idp.accounts.set('anywhere', { email: 'anyone@elsewhere.example', email_verified: true, name: 'Any One' });
      assert.equal((await signInWithProvider(origin, 'anywhere')).final.status, 303);
    } finally {
      app.ctx.config.oidcCreateUsers = 'off';
      app.ctx.config.oidcAllowedDomains = [];
    }
  });

  it('answers a callback with no sign-in started, or an error from the provider, with a page in words', async () => {
    const forged = await fetch(`${origin}/console/oidc/callback?code=abc&state=forged`, { redirect: 'manual', headers: { cookie: 'gatehouse_oidc_state=forged' } });
    assert.equal(forged.status, 401);
    assert.match(await forged.text(), /not started here/);
    const denied = await fetch(`${origin}/console/oidc/callback?error=access_denied&state=x`, { redirect: 'manual' });
    assert.equal(denied.status, 401);
    assert.match(await denied.text(), /refused the sign-in: access_denied/);
  });

  it('throttles sign-in starts per client address (429 with Retry-After), and keeps the sign-ins in flight bounded', async () => {
    const inFlight = () => (app.ctx.db.prepare('SELECT count(*) AS n FROM oidc_logins').get() as { n: number }).n;
    const start = () => fetch(`${origin}/console/oidc/start`, { redirect: 'manual' });
    // A fresh minute: the starts of the tests above do not count.
    app.clock.advance(61_000);
    for (let i = 0; i < OIDC_STARTS_PER_MINUTE; i++) assert.equal((await start()).status, 303, `start ${i + 1}`);
    const rows = inFlight();
    const refused = await start();
    assert.equal(refused.status, 429);
    assert.match(refused.headers.get('content-type')!, /^text\/html/);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1, `Retry-After ${refused.headers.get('retry-after')}`);
    assert.match(await refused.text(), /too many sign-ins were started from your address/);
    assert.equal(inFlight(), rows, 'a refused start writes nothing');
    app.clock.advance(60_000);
    assert.equal((await start()).status, 303, 'a minute later the address may start again');

    // However many addresses start, only the newest sign-ins in flight are kept.
    const { webSessions } = app.ctx.stores;
    const at = app.clock.now().toISOString();
    for (let i = 0; i < 5; i++) webSessions.saveOidcLogin(Buffer.from(`state-${i}`), { codeVerifier: 'v', nonce: 'n', returnTo: '/console' }, at, '1970-01-01T00:00:00.000Z', 3);
    assert.equal(inFlight(), 3);
    assert.ok(webSessions.takeOidcLogin(Buffer.from('state-4')), 'the newest is kept');
    assert.equal(webSessions.takeOidcLogin(Buffer.from('state-1')), undefined, 'the oldest are forgotten');
  });
});
