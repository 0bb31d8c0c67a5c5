// Console sign-in: one-time sign-in links, starting, checking and ending sign-in sessions. Every
// session started or ended, and every link made, is recorded in the audit trail in the same transaction.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { insideTransaction } from '../../db/group-commit.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { publicBase } from '../../http/public-base.ts';
import { requireSelfOrAdmin, type ActingAs } from '../../http/policy.ts';
import type { Caller } from '../../http/types.ts';
import { newId } from '../../lib/ids.ts';
import { isOffboarded } from '../../lib/offboarding.ts';
import type { Actor } from '../events/store.ts';
import { actorFor } from '../../lib/system-actor.ts';
import type { ApiUser } from '../users/mappers.ts';
import type { EndReason, SignInMethod, WebSessionHolder, WebSessionRow } from './store.ts';

const SESSION_PREFIX = 'ghs_';
const LINK_PREFIX = 'ghl_';
/** last_seen_at is written at most this often per session, so reads stay reads. */
const SEEN_GRANULARITY_MS = 60_000;
/** How the audit trail and the request log name what a console caller acted through. */
export const CONSOLE_TOKEN_LABEL = 'console';

export const hashSecret = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();
const newSecret = (prefix: string): string => prefix + randomBytes(32).toString('base64url');

/**
 * The CSRF token of a session: derived from the cookie's secret, so nothing more is stored and a
 * page from another origin, which cannot read the cookie or our responses, cannot know it.
 */
export function csrfTokenFor(sessionSecret: string): string {
  return createHmac('sha256', sessionSecret).update('gatehouse console csrf').digest('base64url');
}

export function csrfTokenMatches(sessionSecret: string, given: string): boolean {
  const expected = Buffer.from(csrfTokenFor(sessionSecret));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The audit actor of what someone does through the console: the person, marked as the console. */
export function consoleActor(session: Pick<WebSessionRow, 'id'>, user: { user_id: string; full_name: string; email: string }, ip: string | null): Actor {
  return { userId: user.user_id, name: user.full_name, email: user.email, tokenLabel: CONSOLE_TOKEN_LABEL, tokenPreview: `session ${session.id.slice(0, 8)}`, ip };
}

/** How a sign-in link reached its person: printed by `gatehouse login-link`, or emailed (asked for on the sign-in page, or sent by an admin). */
export type LinkDelivery = 'PRINTED' | 'EMAILED_ON_REQUEST' | 'EMAILED_BY_ADMIN' | 'INVITATION';

export interface IssuedLink {
  url: string;
  expiresAt: string;
}

/**
 * Makes a one-time sign-in link for `user`, valid `minutes` (GATEHOUSE_LOGIN_LINK_MINUTES unless
 * given), and records LOGIN_LINKS_CREATED with how it is delivered, acted by `actor` (the user when
 * no one else acts: the operator has no account, and a person asking for their own link is that
 * person). Only its hash is stored. Throws forbidden for an offboarded user.
 */
export function issueLoginLink(ctx: AppContext, user: ApiUser, options: { actor?: Actor; minutes?: number; delivery?: LinkDelivery } = {}): IssuedLink {
  if (isOffboarded(user.hr_idp_status)) throw new AppError('forbidden', `${user.email} is ${user.hr_idp_status}: an offboarded user cannot sign in`);
  const secret = newSecret(LINK_PREFIX);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + (options.minutes ?? ctx.config.loginLinkMinutes) * 60_000).toISOString();
  ctx.db.transaction(() => {
    ctx.stores.webSessions.createLink(hashSecret(secret), user.user_id, now.toISOString(), expiresAt);
    ctx.stores.events.record(options.actor ?? actorFor(user), 'LOGIN_LINKS_CREATED', [
      { sub_event_type: 'LOGIN_LINKS_CREATED', user_id: user.user_id, user_email: user.email, expires_at: expiresAt, delivery: options.delivery ?? 'PRINTED' },
    ]);
  }).immediate();
  return { url: `${publicBase(ctx)}/console/sign-in/${secret}`, expiresAt };
}

/** The link `gatehouse login-link` prints (issueLoginLink, acted by the user, PRINTED). */
export const createLoginLink = (ctx: AppContext, user: ApiUser): string => issueLoginLink(ctx, user).url;

export interface ClientFacts {
  ip: string | null;
  userAgent: string | null;
}

export interface StartedSession {
  session: WebSessionRow;
  /** The cookie's value: returned once, only its hash is stored. */
  secret: string;
}

/** The user a sign-in link signs in: throws unauthenticated, saying why in words, for an unknown, expired or used link. */
function linkUser(ctx: AppContext, hash: Buffer, now: string): ApiUser {
  const link = ctx.stores.webSessions.findLink(hash);
  if (!link) throw new AppError('unauthenticated', 'this sign-in link is not valid; ask for a new one');
  if (link.used_at !== null) throw new AppError('unauthenticated', 'this sign-in link was already used; a link works once, ask for a new one');
  if (link.expires_at <= now) throw new AppError('unauthenticated', 'this sign-in link has expired; ask for a new one');
  const user = ctx.stores.users.get(link.user_id);
  if (!user) throw new AppError('unauthenticated', 'the user of this sign-in link no longer exists');
  if (isOffboarded(user.hr_idp_status)) throw new AppError('forbidden', `${user.email} is ${user.hr_idp_status}: an offboarded user cannot sign in`);
  return user;
}

/**
 * Whom a sign-in link would sign in, without using it (opening a link only shows whom; a POST uses it,
 * so mail scanners that fetch links spend nothing). Throws as redeemLoginLink does.
 */
export function peekLoginLink(ctx: AppContext, linkSecret: string): ApiUser {
  return linkUser(ctx, hashSecret(linkSecret), ctx.clock.now().toISOString());
}

/**
 * Uses a sign-in link and starts a session with it, in one transaction. Throws unauthenticated,
 * saying why in words, for an unknown, expired or already used link; forbidden for an offboarded user.
 */
export function redeemLoginLink(ctx: AppContext, linkSecret: string, client: ClientFacts): StartedSession {
  const hash = hashSecret(linkSecret);
  const now = ctx.clock.now().toISOString();
  return ctx.db.transaction(() => {
    const user = linkUser(ctx, hash, now);
    ctx.stores.webSessions.useLink(hash, now);
    return startWebSession(ctx, user, 'LOGIN_LINK', client);
  }).immediate();
}

/**
 * Starts a sign-in session for `user` and records WEB_SESSIONS_CREATED. Throws forbidden for an
 * offboarded user. Joins the caller's transaction when there is one.
 */
export function startWebSession(ctx: AppContext, user: ApiUser, method: SignInMethod, client: ClientFacts): StartedSession {
  if (isOffboarded(user.hr_idp_status)) {
    throw new AppError('forbidden', `${user.email} is ${user.hr_idp_status}: an offboarded user cannot sign in`);
  }
  const secret = newSecret(SESSION_PREFIX);
  const now = ctx.clock.now();
  const start = () => {
    const session = ctx.stores.webSessions.create({
      id: newId(),
      secretHash: hashSecret(secret),
      userId: user.user_id,
      role: user.organization_role,
      method,
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 300) ?? null,
      now: now.toISOString(),
      expiresAt: new Date(now.getTime() + ctx.config.webSessionMaxMinutes * 60_000).toISOString(),
    });
    ctx.stores.events.record(consoleActor(session, user, client.ip), 'WEB_SESSIONS_CREATED', [
      { sub_event_type: 'WEB_SESSIONS_CREATED', web_session_id: session.id, user_id: user.user_id, sign_in_method: method },
    ]);
    return { session, secret };
  };
  return insideTransaction(ctx.db) ? start() : ctx.db.transaction(start).immediate();
}

/** Why a session found by its cookie no longer works, or undefined while it does. */
function whyEnded(ctx: AppContext, holder: WebSessionHolder, now: Date): EndReason | undefined {
  if (holder.expires_at <= now.toISOString()) return 'EXPIRED';
  if (now.getTime() - Date.parse(holder.last_seen_at) >= ctx.config.webSessionIdleMinutes * 60_000) return 'IDLE';
  if (isOffboarded(holder.hr_idp_status)) return 'OFFBOARDED';
  // A session started with an admin's rights ends when they lose them, rather than carrying on as a member's.
  if (holder.role_at_start === 'ADMIN' && holder.organization_role !== 'ADMIN') return 'DEMOTED';
  return undefined;
}

const ENDED_IN_WORDS: Record<EndReason, string> = {
  SIGNED_OUT: 'you signed out',
  REVOKED: 'the session was revoked',
  IDLE: 'it was idle too long',
  EXPIRED: 'it reached its time limit',
  OFFBOARDED: 'your account is offboarded',
  DEMOTED: 'your organization role changed',
  EMAIL_CHANGED: 'your email address changed',
};

/**
 * The caller a session cookie stands for, with the cookie's secret (for the CSRF check). Throws
 * unauthenticated, saying why, when the session is unknown or has ended; ends it (recording
 * WEB_SESSIONS_ENDED when the user was offboarded or demoted) when it has just run out.
 */
export function callerForSession(ctx: AppContext, secret: string, ip: string): { caller: Caller; session: WebSessionHolder } {
  const { webSessions, events } = ctx.stores;
  const now = ctx.clock.now();
  const holder = webSessions.findBySecret(hashSecret(secret));
  if (!holder) throw new AppError('unauthenticated', 'you are not signed in, or your console session has ended; sign in again');
  if (holder.end_reason !== null) throw new AppError('unauthenticated', `your console session has ended (${ENDED_IN_WORDS[holder.end_reason]}); sign in again`);
  const reason = whyEnded(ctx, holder, now);
  if (reason) {
    ctx.db.transaction(() => {
      if (!webSessions.end(holder.id, now.toISOString(), reason)) return;
      if (reason === 'OFFBOARDED' || reason === 'DEMOTED') {
        events.record(consoleActor(holder, { ...holder, user_id: holder.user_id }, ip), 'WEB_SESSIONS_ENDED', [
          { sub_event_type: 'WEB_SESSIONS_ENDED', web_session_id: holder.id, user_id: holder.user_id, end_reason: reason },
        ]);
      }
    }).immediate();
    throw new AppError('unauthenticated', `your console session has ended (${ENDED_IN_WORDS[reason]}); sign in again`);
  }
  if (now.getTime() - Date.parse(holder.last_seen_at) >= SEEN_GRANULARITY_MS) webSessions.markSeen(holder.id, now.toISOString());
  const actor = consoleActor(holder, holder, ip);
  return {
    session: holder,
    caller: {
      userId: holder.user_id,
      name: holder.full_name,
      email: holder.email,
      tokenId: null,
      tokenLabel: actor.tokenLabel,
      tokenPreview: actor.tokenPreview,
      accessLevel: 'FULL_ACCESS',
      role: holder.organization_role,
      ip,
    },
  };
}

/**
 * Ends at once, for good, the open sign-in sessions of `userId` that `reason` ends: every one when they
 * are offboarded or their email changes, those started with an admin's rights when they are demoted (so re-activating or
 * re-promoting them brings none back). Records WEB_SESSIONS_ENDED (a sub-event per session; nothing
 * when none was open). Runs inside the caller's transaction.
 */
export function endSessionsOfUser(ctx: AppContext, actor: Actor, userId: string, reason: 'OFFBOARDED' | 'DEMOTED' | 'EMAIL_CHANGED'): number {
  const { webSessions, events } = ctx.stores;
  const now = ctx.clock.now().toISOString();
  const ended = webSessions.openOfUser(userId)
    .filter((session) => reason !== 'DEMOTED' || session.role_at_start === 'ADMIN')
    .filter((session) => webSessions.end(session.id, now, reason));
  if (ended.length > 0) {
    events.record(actor, 'WEB_SESSIONS_ENDED', ended.map((session) => (
      { sub_event_type: 'WEB_SESSIONS_ENDED', web_session_id: session.id, user_id: userId, end_reason: reason }
    )));
  }
  return ended.length;
}

/**
 * Forgets every sign-in link and invitation of `userId` not yet used, so none made before an offboarding
 * or an email change works after it (a link was sent to whoever had the address then). Inside the
 * caller's transaction; the links are recorded (LOGIN_LINKS_CREATED) and simply stop working.
 */
export function endLinksOfUser(ctx: AppContext, userId: string): number {
  return ctx.stores.webSessions.dropOpenLinks(userId);
}

/**
 * Ends a sign-in session and records WEB_SESSIONS_ENDED. Throws not_found for an unknown or ended
 * session, forbidden when a MEMBER ends someone else's.
 */
export function endWebSession(ctx: AppContext, actor: Actor & ActingAs, sessionId: string, reason: 'SIGNED_OUT' | 'REVOKED'): void {
  const { webSessions, events } = ctx.stores;
  ctx.db.transaction(() => {
    const session = webSessions.get(sessionId);
    if (!session || session.ended_at !== null) throw notFound('web session', sessionId, 'web_session_id');
    requireSelfOrAdmin(actor, session.user_id, 'end sign-in sessions');
    webSessions.end(session.id, ctx.clock.now().toISOString(), reason);
    events.record(actor, 'WEB_SESSIONS_ENDED', [
      { sub_event_type: 'WEB_SESSIONS_ENDED', web_session_id: session.id, user_id: session.user_id, end_reason: reason },
    ]);
  }).immediate();
}
