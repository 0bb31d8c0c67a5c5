// Remote users a connector created for a person (Opal's POST /users, a PostgreSQL role): remembered
// as Gatehouse's, so offboarding removes them (provisioning.ts), and recorded in the audit trail. The
// id a connector answers is remote data: one Gatehouse already knows as someone else's account, or as
// an account it found rather than made, is refused — Bob's grant never lands on Alice's account, and
// Bob's offboarding never deletes it.
import type { AppContext } from '../../context.ts';
import { OUTBOX_ACTOR } from '../../outbox/index.ts';
import { quoteRemote } from './remote-schemas.ts';

/**
 * Remembers that the connector of `appId` created `remoteUserId` for `user`, and records
 * CONNECTOR_USERS_CREATED, in one short transaction (the remote call has already answered). Refuses,
 * recording a sync error instead, an id Gatehouse already knows as another person's, an admin's link, or
 * an account it found unmatched. An id a sync already matched to this same person is taken as found, not made.
 */
export function recordMadeUser(ctx: AppContext, appId: string, remoteUserId: string, user: { user_id: string; email: string }): { ok: true } | { ok: false; code: string; error: string } {
  return ctx.db.transaction(() => {
    const known = ctx.stores.connectors.linkOf(appId, remoteUserId);
    // Already linked to this very person (a sync matched it meanwhile): theirs, but found, not made — never removed.
    if (known && known.user_id === user.user_id && known.made_by_gatehouse === 0 && known.mapped_by_admin === 0) return { ok: true } as const;
    if (known && !(known.made_by_gatehouse === 1 && known.user_id === user.user_id)) {
      const whose = known.user_id === null ? 'an account it found, which matches nobody here'
        : known.user_id === user.user_id ? 'an account an admin linked to this person' : 'the account of another person';
      const error = `asked to create an account for ${user.email}, the connector answered remote user ${quoteRemote(remoteUserId)}, which Gatehouse knows as ${whose}; refused`;
      ctx.stores.connectors.recordSyncError(appId, {}, error, ctx.clock.now());
      return { ok: false, code: 'ERR_REMOTE_UNRECOVERABLE_ERROR', error } as const;
    }
    ctx.stores.connectors.linkMadeUser(appId, remoteUserId, user.user_id, user.email);
    ctx.stores.events.record(OUTBOX_ACTOR, 'CONNECTOR_USERS_CREATED', [
      { sub_event_type: 'CONNECTOR_USERS_CREATED', app_id: appId, user_id: user.user_id, email: user.email, remote_user_id: remoteUserId },
    ]);
    return { ok: true } as const;
  }).immediate();
}
