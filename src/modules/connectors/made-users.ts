// Remote users a connector created for a person (Opal's POST /users, a PostgreSQL role): remembered
// as Gatehouse's, so offboarding removes them (provisioning.ts), and recorded in the audit trail.
import type { AppContext } from '../../context.ts';
import { OUTBOX_ACTOR } from '../../outbox/index.ts';

/**
 * Remembers that the connector of `appId` created `remoteUserId` for the person with `email`, and records
 * CONNECTOR_USERS_CREATED, in one short transaction (the remote call has already answered).
 */
export function recordMadeUser(ctx: AppContext, appId: string, remoteUserId: string, user: { user_id: string; email: string }): void {
  ctx.db.transaction(() => {
    ctx.stores.connectors.linkMadeUser(appId, remoteUserId, user.email);
    ctx.stores.events.record(OUTBOX_ACTOR, 'CONNECTOR_USERS_CREATED', [
      { sub_event_type: 'CONNECTOR_USERS_CREATED', app_id: appId, user_id: user.user_id, email: user.email, remote_user_id: remoteUserId },
    ]);
  }).immediate();
}
