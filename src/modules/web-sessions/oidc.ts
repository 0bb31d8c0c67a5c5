// Single sign-on through the organization's OpenID Connect provider: authorization code flow with
// PKCE (S256), state and nonce, done by openid-client (a certified relying party). The provider's
// discovery document is read once, at the first sign-in. No network call runs inside a transaction.
import { createHash, randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import * as v from 'valibot';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { addressPolicy, outboundFetch } from '../../http/outbound.ts';
import { Name } from '../../http/common-schemas.ts';
import { createUser } from '../users/service.ts';
import { Email } from '../users/schemas.ts';
import { startWebSession, type ClientFacts, type StartedSession } from './service.ts';

/**
 * Sign-ins in flight kept at most (started, not yet finished); past it the oldest are forgotten (their
 * people start again), so starts from many addresses cannot grow the table without bound.
 */
export const MAX_OIDC_LOGINS = 10_000;
/** Sign-ins one client address may start per minute; more answer 429 (console/handlers.ts). A person needs one or two. */
export const OIDC_STARTS_PER_MINUTE = 30;

/** The provider's configuration per context, with the issuer, client id and secret it was discovered for. */
const discovered = new WeakMap<AppContext, { made: string; found: Promise<oidc.Configuration> }>();
const hashState = (state: string): Buffer => createHash('sha256').update(state, 'utf8').digest();

export const oidcEnabled = (ctx: AppContext): boolean => ctx.config.oidcIssuer !== undefined && ctx.config.oidcClientId !== undefined;

/** `base`: the address the browser reached us at (cookie.ts's ownBase): GATEHOUSE_PUBLIC_URL, else what the request says. */
export const redirectUri = (base: string): string => `${base}/console/oidc/callback`;

/** Reads the provider's discovery document for the settings in effect (no cache). */
function discover(ctx: AppContext): Promise<oidc.Configuration> {
  const { oidcIssuer, oidcClientId, oidcClientSecret } = ctx.config;
  const issuer = new URL(oidcIssuer!);
  // Plain http is allowed only where an admin configured it (a provider on loopback or an internal network).
  // Every call to the provider (discovery, keys, tokens) obeys the private-address policy.
  const options = {
    ...(issuer.protocol === 'http:' && { execute: [oidc.allowInsecureRequests] }),
    [oidc.customFetch]: outboundFetch(addressPolicy(ctx.config)) as oidc.CustomFetch,
  };
  return oidc.discovery(issuer, oidcClientId!, oidcClientSecret, undefined, options);
}

/**
 * The provider's configuration, discovered once for the issuer, client id and secret in effect, and again
 * when one of them changes (on the Settings page, without a restart); a failed discovery is retried at the
 * next sign-in.
 */
function configuration(ctx: AppContext): Promise<oidc.Configuration> {
  const made = JSON.stringify([ctx.config.oidcIssuer, ctx.config.oidcClientId, ctx.config.oidcClientSecret]);
  const known = discovered.get(ctx);
  if (known?.made === made) return known.found;
  const found = discover(ctx);
  found.catch(() => {
    if (discovered.get(ctx)?.found === found) discovered.delete(ctx);
  });
  discovered.set(ctx, { made, found });
  return found;
}

/**
 * The Settings page's *Check* of single sign-on: reads the provider's discovery document now for the
 * settings in effect, and says what it found (the endpoints) or why it failed, in words for people, with
 * the redirect URI to register at the provider.
 */
export async function checkOidcProvider(ctx: AppContext, base: string): Promise<{ ok: boolean; message: string }> {
  if (!oidcEnabled(ctx)) return { ok: false, message: 'single sign-on is not set up: set the issuer URL and the client id' };
  try {
    const found = (await discover(ctx)).serverMetadata();
    return {
      ok: true,
      message: `${found.issuer} answered its discovery document: sign-in at ${found.authorization_endpoint ?? '(no authorization endpoint)'}, ` +
        `tokens from ${found.token_endpoint ?? '(no token endpoint)'}. Register ${redirectUri(base)} as the redirect URI there.`,
    };
  } catch (err) {
    // openid-client's words name what failed (the address, the status, a wrong issuer), never the client secret.
    // A network failure is wrapped ("something went wrong"): its cause (refused by the address policy, say) says what.
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return { ok: false, message: `the identity provider's discovery failed: ${err instanceof Error ? err.message : String(err)}${cause}` };
  }
}

/**
 * A claim checked with the API's own rule for the user field it fills (users/schemas.ts): what a provider
 * sends is input like any other. Throws forbidden naming the claim and the rule, never echoing the value.
 */
function checkedClaim<S extends v.GenericSchema<unknown, string>>(schema: S, value: unknown, claim: string): string {
  const result = v.safeParse(schema, value, { abortPipeEarly: true });
  if (result.success) return result.output;
  throw new AppError('forbidden', `your identity provider's \`${claim}\` claim cannot be used here (${result.issues[0]!.message}); ask an administrator`);
}

/** Whether GATEHOUSE_OIDC_ALLOWED_DOMAINS admits `email` (already checked as an email) to be created as a user. */
function domainAllowed(ctx: AppContext, email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return ctx.config.oidcAllowedDomains.includes('*') || ctx.config.oidcAllowedDomains.includes(domain);
}

/** Only paths inside the console may be returned to after sign-in (no open redirect). */
export function safeReturnTo(raw: unknown): string {
  return typeof raw === 'string' && /^\/console(\/[\w\-/]*)?$/.test(raw) ? raw : '/console';
}

/**
 * Where to send the browser to sign in: the provider's authorization endpoint with a fresh state,
 * nonce and PKCE challenge; the verifier is kept (found by the state's hash) for the callback.
 */
export async function startOidcSignIn(ctx: AppContext, base: string, returnTo: string): Promise<{ location: string; state: string }> {
  if (!oidcEnabled(ctx)) throw new AppError('not_found', 'single sign-on is not configured (GATEHOUSE_OIDC_ISSUER and GATEHOUSE_OIDC_CLIENT_ID)');
  const config = await configuration(ctx).catch((err: unknown) => {
    ctx.log.error('oidc discovery failed', { error: err instanceof Error ? err.message : String(err) });
    throw new AppError('unavailable', 'the identity provider could not be reached; try again later');
  });
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = randomBytes(32).toString('base64url');
  const nonce = oidc.randomNonce();
  const now = ctx.clock.now();
  const forgetBefore = new Date(now.getTime() - ctx.config.loginLinkMinutes * 60_000).toISOString();
  ctx.stores.webSessions.saveOidcLogin(hashState(state), { codeVerifier, nonce, returnTo }, now.toISOString(), forgetBefore, MAX_OIDC_LOGINS);
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri(base),
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { location: url.href, state };
}

/**
 * Finishes a sign-in at the callback: checks state (also against the browser's state cookie), exchanges the code with the PKCE verifier,
 * validates the ID token (nonce included), matches the user by verified email, and starts a session.
 * Throws unauthenticated or forbidden with the reason in words.
 */
export async function finishOidcSignIn(ctx: AppContext, base: string, callbackUrl: URL, browserState: string | undefined, client: ClientFacts): Promise<StartedSession & { returnTo: string }> {
  if (!oidcEnabled(ctx)) throw new AppError('not_found', 'single sign-on is not configured');
  const providerError = callbackUrl.searchParams.get('error');
  if (providerError) throw new AppError('unauthenticated', `the identity provider refused the sign-in: ${providerError}`);
  const state = callbackUrl.searchParams.get('state');
  if (!state || state !== browserState) {
    throw new AppError('unauthenticated', 'this sign-in was not started in this browser; start again from the sign-in page');
  }
  const login = state ? ctx.stores.webSessions.takeOidcLogin(hashState(state)) : undefined;
  const oldest = ctx.clock.now().getTime() - ctx.config.loginLinkMinutes * 60_000;
  if (!login || Date.parse(login.created_at) < oldest) {
    throw new AppError('unauthenticated', 'this sign-in was not started here, was already finished, or took too long; start again');
  }
  const config = await configuration(ctx);
  let claims: Record<string, unknown> | undefined;
  try {
    // The redirect URI registered with the provider, with the query the provider sent back.
    const current = new URL(redirectUri(base));
    current.search = callbackUrl.search;
    const tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: login.code_verifier,
      expectedState: state!,
      expectedNonce: login.nonce,
      idTokenExpected: true,
    });
    const idToken = tokens.claims();
    claims = idToken;
    // Many providers put email only in the userinfo answer (OIDC core 5.4): ask it, for the same subject.
    if (idToken && (typeof idToken.email !== 'string' || idToken.email_verified === undefined)) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
      claims = { ...idToken, email: info.email, email_verified: info.email_verified, name: idToken.name ?? info.name };
    }
  } catch (err) {
    ctx.log.info('oidc sign-in refused', { error: err instanceof Error ? err.message : String(err) });
    throw new AppError('unauthenticated', 'the identity provider\'s answer could not be verified; start the sign-in again');
  }
  if (claims?.email === undefined || claims.email_verified !== true) {
    throw new AppError('forbidden', 'your identity provider did not give a verified email address, which Gatehouse needs to know who you are');
  }
  // A claim that differs from its trimmed form is refused, not trimmed: " admin@…" is not admin@….
  if (typeof claims.email === 'string' && claims.email !== claims.email.trim()) {
    throw new AppError('forbidden', "your identity provider's `email` claim has spaces around it, so it is not an email Gatehouse can match; ask an administrator");
  }
  const email = checkedClaim(Email, claims.email, 'email');
  let user = ctx.stores.users.getByEmail(email);
  if (!user) {
    if (ctx.config.oidcCreateUsers !== 'on') {
      throw new AppError('forbidden', `Gatehouse has no user with the email ${email}; ask an administrator to add you`);
    }
    if (!domainAllowed(ctx, email)) {
      throw new AppError('forbidden', `Gatehouse has no user with the email ${email}, and creates users only for the domains it is set to (GATEHOUSE_OIDC_ALLOWED_DOMAINS); ask an administrator to add you`);
    }
    // No name, or an empty one, reads as the email; a name given must be one the API would take.
    const given = typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name : undefined;
    const name = given === undefined ? email : checkedClaim(Name(200), given, 'name');
    const created = { email, full_name: name, position: '' };
    // No one but the sign-in itself acts: the trail names single sign-on (no user id yet) and the person's email.
    const actor = { userId: '00000000-0000-0000-0000-000000000000', name: 'single sign-on (first sign-in)', email, tokenLabel: 'console', tokenPreview: null, ip: client.ip };
    user = createUser(ctx, actor, created);
  }
  return { ...startWebSession(ctx, user, 'OIDC', client), returnTo: login.return_to };
}
