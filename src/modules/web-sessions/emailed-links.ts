// Sign-in links by email: asked for on the signed-out console page (anyone may ask; only an active
// person with that address is mailed, and the answer never says whether one was), and sent by an admin
// (a sign-in link, or an invitation that lasts longer and says who invited them). The link is made and
// recorded in its own transaction; the mail goes out after it commits, never inside it. A link asked
// for on the page goes through the outbox, so asking costs the same whoever has the address.
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { isOffboarded } from '../../lib/offboarding.ts';
import { enqueue, type OutboxHandler } from '../../outbox/index.ts';
import type { Actor } from '../events/store.ts';
import { channelsOf } from '../notifications/deliver.ts';
import { toEmail } from '../notifications/render.ts';
import { durationInWords } from '../notifications/words.ts';
import type { ApiUser } from '../users/mappers.ts';
import type { SentSignInLink } from './responses.ts';
import { issueLoginLink, type IssuedLink } from './service.ts';

/** Sign-in emails one client address may ask for per SIGN_IN_EMAIL_WINDOW_MS; more answer 429. */
export const SIGN_IN_EMAILS_PER_CLIENT = 10;
/** Sign-in emails that may be asked for one email address per window, so nobody's mailbox is flooded. */
export const SIGN_IN_EMAILS_PER_ADDRESS = 3;
export const SIGN_IN_EMAIL_WINDOW_MS = 15 * 60_000;

/** What the sign-in page answers every request for a link, known address or not: the same words, the same status. */
export const SIGN_IN_EMAIL_ANSWER = 'If that address belongs to someone who may sign in to Gatehouse, a sign-in link is on its way to it. Check your email.';

/** Whether email is set up here (GATEHOUSE_SMTP_URL): without it, links cannot be emailed. */
export const emailConfigured = (ctx: AppContext): boolean => ctx.config.smtpUrl !== undefined;

export type EmailedLinkKind = 'SIGN_IN' | 'INVITATION';

function mailFor(ctx: AppContext, user: ApiUser, link: IssuedLink, kind: EmailedLinkKind, inviter: string | undefined): ReturnType<typeof toEmail> {
  const minutes = kind === 'INVITATION' ? ctx.config.invitationHours * 60 : ctx.config.loginLinkMinutes;
  const lasts = `The link works once, within ${durationInWords(minutes)}.`;
  const lines = kind === 'INVITATION'
    ? [`Hello ${user.full_name},`, `${inviter ?? 'An administrator'} invited you to Gatehouse, where you ask for access and review what others ask for.`, lasts,
      'When it has run out, ask for a new one on the sign-in page.']
    : [`Hello ${user.full_name},`, 'Here is the sign-in link you asked for (or an administrator sent you).', lasts,
      'If you did not ask for it, ignore this email: nobody can use it without this mailbox.'];
  return toEmail({
    subject: kind === 'INVITATION' ? 'You are invited to Gatehouse' : 'Your Gatehouse sign-in link',
    lines,
    link: { label: kind === 'INVITATION' ? 'Accept the invitation and sign in' : 'Sign in to Gatehouse', url: link.url },
    actionableRequestId: null,
  });
}

/** Sends the link's mail; the outcome in words, never the link (it is a secret). */
async function send(ctx: AppContext, user: ApiUser, link: IssuedLink, kind: EmailedLinkKind, inviter?: string): Promise<{ ok: true } | { ok: false; error: string }> {
  const email = channelsOf(ctx).email;
  if (!email) return { ok: false, error: 'email is not set up (GATEHOUSE_SMTP_URL)' };
  const sent = await email.send({ to: { name: user.full_name, address: user.email }, ...mailFor(ctx, user, link, kind, inviter) });
  return sent.ok ? { ok: true } : { ok: false, error: sent.error };
}

/** The outbox kind that mails a sign-in link asked for on the sign-in page (signInEmailHandler). */
export const SIGN_IN_EMAIL_KIND = 'sign-in-link.email';

/**
 * What the sign-in page's "Email me a sign-in link" does: queues the ask in the outbox, the same one
 * write whether or not anyone has the address, so neither the answer nor what follows it on the
 * connection says whether someone does (the address is looked up later, by the outbox:
 * signInEmailHandler). The link returns to `returnTo` (a console path, already checked) once used.
 * Called after the page's answer is sent; rejects only when the ask could not be written.
 */
export async function emailLinkOnRequest(ctx: AppContext, email: string, returnTo = '/console'): Promise<void> {
  ctx.db.transaction(() => {
    enqueue(ctx, { kind: SIGN_IN_EMAIL_KIND, key: `sign-in-email:${email.toLowerCase()}`, payload: { email, returnTo } });
  }).immediate();
}

/**
 * Mails a one-time link to the active person with the asked address, if there is one (recorded as
 * LOGIN_LINKS_CREATED, acted by that person); for an unknown or offboarded address it does nothing at
 * all. A failed send is retried with a new link until the link's own lifetime has passed.
 */
export const signInEmailHandler: OutboxHandler<{ email: string; returnTo: string }> = {
  async run(ctx, item) {
    const user = ctx.stores.users.getByEmail(item.payload.email);
    if (!user || isOffboarded(user.hr_idp_status) || !emailConfigured(ctx)) return { ok: true };
    const issued = issueLoginLink(ctx, user, { delivery: 'EMAILED_ON_REQUEST' });
    const returnTo = item.payload.returnTo;
    const link = returnTo === '/console' ? issued : { ...issued, url: `${issued.url}?return_to=${encodeURIComponent(returnTo)}` };
    const outcome = await send(ctx, user, link, 'SIGN_IN');
    if (outcome.ok) return { ok: true };
    ctx.log.error('sign-in email failed', { user_id: user.user_id, error: outcome.error });
    return { ok: false, error: outcome.error, code: 'CHANNEL_ERROR' };
  },
  giveUpAfterMs: 15 * 60_000,
};

/**
 * An admin sends `user` a sign-in link or an invitation (POST /v1/users/{user_id}/sign-in-link):
 * recorded as LOGIN_LINKS_CREATED acted by the admin, then mailed and awaited, so the admin hears
 * whether it went. With `sendEmail` false the link is returned instead, shown once, for the admin to
 * pass on (the way without email). Throws forbidden for an offboarded user, validation_failed naming
 * send_email when email is not set up, unavailable when the mail server refused it.
 */
export async function sendLinkAsAdmin(ctx: AppContext, actor: Actor, user: ApiUser, kind: EmailedLinkKind, sendEmail: boolean): Promise<SentSignInLink> {
  if (sendEmail && !emailConfigured(ctx)) {
    throw new AppError('validation_failed', 'email is not set up on this Gatehouse (GATEHOUSE_SMTP_URL)', [
      { path: 'send_email', message: 'email is not set up (GATEHOUSE_SMTP_URL); send false to be shown the link and pass it on yourself' },
    ]);
  }
  const delivery = !sendEmail ? 'PRINTED' : kind === 'INVITATION' ? 'INVITATION' : 'EMAILED_BY_ADMIN';
  const minutes = kind === 'INVITATION' ? ctx.config.invitationHours * 60 : ctx.config.loginLinkMinutes;
  const link = issueLoginLink(ctx, user, { actor, minutes, delivery });
  const answer: SentSignInLink = { user_id: user.user_id, email: user.email, kind, expires_at: link.expiresAt };
  if (!sendEmail) return { ...answer, url: link.url };
  const outcome = await send(ctx, user, link, kind, actor.name ?? undefined);
  if (!outcome.ok) throw new AppError('unavailable', `the email to ${user.email} could not be sent (${outcome.error}); the link was not delivered, try again or send false for send_email to be shown it`);
  return answer;
}
