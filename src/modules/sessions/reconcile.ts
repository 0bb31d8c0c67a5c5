// Open sessions kept in line with the access they rely on: the sessions area's own write, which the one
// owner of access changes (access/changes.ts) calls inside the transaction that changed the edges.
import type { AppContext } from '../../context.ts';
import type { SubEvent } from '../events/store.ts';

/**
 * Brings open sessions in `scope` in line with what their users still hold at `now`: a session whose
 * holding is gone ends, one outliving its holding is cut back to the holding's expiry. Returns a
 * SESSIONS_ENDED sub-event per session ended. Call inside the transaction that changed the edges.
 */
export function reconcileSessions(ctx: AppContext, scope: { userId?: string; resourceId?: string }, now: Date): SubEvent[] {
  const { sessions, holdings } = ctx.stores;
  const ended: SubEvent[] = [];
  for (const session of sessions.openWhere(scope, now)) {
    const holding = holdings.resourcesOfUser(session.user_id, now, session.resource_id)
      .find((h) => h.level === session.access_level.access_level_remote_id);
    if (!holding) {
      sessions.end(session.connection_id, now);
      ended.push({ sub_event_type: 'SESSIONS_ENDED', connection_id: session.connection_id, resource_id: session.resource_id, user_id: session.user_id });
    } else if (holding.exp !== '9999-12-31T23:59:59.999Z' && holding.exp < session.expiration_date) {
      sessions.setExpiry(session.connection_id, holding.exp);
    }
  }
  return ended;
}
