// Issuing and revoking API tokens, and the first admin of an empty database.
import type { AppContext } from '../../context.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import type { Actor } from '../events/store.ts';
import { actorFor } from '../../lib/system-actor.ts';
/** The CLI's verbs act as a user through this (defined with the other actors). */
export { actorFor } from '../../lib/system-actor.ts';
import { createFirstAdmin } from '../users/first-admin.ts';
import type { TokenHolder } from './store.ts';
import type { AccessLevel, TokenScope, ApiToken } from './mappers.ts';
import { newTokenSecret } from './secret.ts';
import { requireSelfOrAdmin, type ActingAs } from '../../http/policy.ts';

export interface IssuedToken {
  token: ApiToken;
  /** The plaintext secret: returned once, never stored. */
  secret: string;
}

/**
 * Issues a token for `userId` and records API_TOKENS_CREATED.
 * `secret` is for the bootstrap token an operator chose; otherwise a random one is made.
 * Throws forbidden when a MEMBER issues one for someone else, not_found when the user does not exist.
 * A token never carries more than its user's role, so a member's own token is a member's token.
 */
export function issueToken(
  ctx: AppContext,
  actor: Actor & ActingAs,
  input: { userId: string; label: string; accessLevel: AccessLevel; secret?: string; scope?: TokenScope },
): IssuedToken {
  const { users, tokens, events } = ctx.stores;
  const secret = input.secret ?? newTokenSecret();
  return ctx.db.transaction(() => {
    requireSelfOrAdmin(actor, input.userId, 'issue tokens');
    if (!users.exists(input.userId)) throw notFound('user', input.userId, 'user_id');
    // A SCIM token provisions and offboards people: only an admin holds one (and only an admin may
    // issue a token for someone else: requireSelfOrAdmin above).
    if (input.scope === 'SCIM' && input.accessLevel === 'READ_ONLY') throw invalidField('access_level', 'a SCIM token provisions people, so it is FULL_ACCESS');
    if (input.scope === 'SCIM' && users.get(input.userId)?.organization_role !== 'ADMIN') {
      throw new AppError('forbidden', 'a SCIM token acts as an admin: its user must be an ADMIN', [{ path: 'user_id', message: 'is not an admin' }]);
    }
    const token = tokens.create(
      { secret, label: input.label, accessLevel: input.accessLevel, userId: input.userId, creatorUserId: actor.userId, scope: input.scope },
      ctx.clock.now(),
    );
    events.record(actor, 'API_TOKENS_CREATED', [
      { sub_event_type: 'API_TOKENS_CREATED', token_id: token.token_id, token_label: token.token_label, user_id: token.user_id, access_level: token.access_level,
        ...(input.scope === 'SCIM' && { scope: 'SCIM' }) },
    ]);
    return { token, secret };
  }).immediate();
}

/**
 * Deletes a token and records API_TOKENS_DELETED; throws not_found for an unknown id and forbidden
 * when a MEMBER revokes someone else's.
 */
export function revokeToken(ctx: AppContext, actor: Actor & ActingAs, tokenId: string): ApiToken {
  const { tokens, events } = ctx.stores;
  return ctx.db.transaction(() => {
    const token = tokens.get(tokenId);
    if (!token) throw notFound('token', tokenId);
    requireSelfOrAdmin(actor, token.user_id, 'revoke tokens');
    tokens.delete(tokenId);
    events.record(actor, 'API_TOKENS_DELETED', [
      { sub_event_type: 'API_TOKENS_DELETED', token_id: token.token_id, token_label: token.token_label, user_id: token.user_id },
    ]);
    return token;
  }).immediate();
}

/**
 * Deletes every token of `userId` and records API_TOKENS_DELETED (a sub-event per token; nothing when
 * they had none). For offboarding: the tokens end for good, so re-activating the user brings none back.
 * Runs inside the caller's transaction.
 */
export function revokeTokensOfUser(ctx: AppContext, actor: Actor, userId: string): number {
  const deleted = ctx.stores.tokens.deleteAllOfUser(userId);
  if (deleted.length > 0) {
    ctx.stores.events.record(actor, 'API_TOKENS_DELETED', deleted.map((token) => (
      { sub_event_type: 'API_TOKENS_DELETED', token_id: token.id, token_label: token.label, user_id: userId }
    )));
  }
  return deleted.length;
}

/**
 * On a database with no users, creates the admin user (GATEHOUSE_ADMIN_EMAIL, `serve --admin-email`) and its
 * FULL_ACCESS token, in one transaction.
 * The token is `chosenSecret` when given (GATEHOUSE_BOOTSTRAP_TOKEN), else a random one.
 * Returns undefined when the database already has users (a chosen secret is then ignored).
 */
export function bootstrapAdmin(ctx: AppContext, chosenSecret: string | undefined): IssuedToken | undefined {
  return ctx.db.transaction(() => {
    if (ctx.stores.users.count() > 0) return undefined;
    const admin = createFirstAdmin(ctx, ctx.config.adminEmail);
    return issueToken(ctx, actorFor(admin), {
      userId: admin.user_id,
      label: 'bootstrap',
      accessLevel: 'FULL_ACCESS',
      ...(chosenSecret !== undefined && { secret: chosenSecret }),
    });
  }).immediate();
}

/** last_used_at is written at most this often per token, so reads stay reads (as src/http/auth.ts does). */
const LAST_USED_GRANULARITY_MS = 60_000;

/**
 * The holder of a live token (known, not expired), marking it used at most once a minute; undefined
 * for a wrong, revoked or expired one. For the doors outside /v1 that take tokens (SCIM, docs/scim.md);
 * what the holder may do there is the caller's to decide (scope, role, status).
 */
export function liveTokenHolder(ctx: AppContext, secret: string, now: Date): TokenHolder | undefined {
  const holder = ctx.stores.tokens.findBySecret(secret);
  if (!holder || (holder.expiresAt !== null && holder.expiresAt <= now.toISOString())) return undefined;
  if (holder.lastUsedAt === null || now.getTime() - Date.parse(holder.lastUsedAt) >= LAST_USED_GRANULARITY_MS) ctx.stores.tokens.markUsed(holder.tokenId, now);
  return holder;
}
