// The first user of an empty database, made by the users area for the tokens area's bootstrap (which
// imports this file, not users/service.ts: that one revokes tokens, so it imports the tokens service).
import type { AppContext } from '../../context.ts';
import { actorFor } from '../../lib/system-actor.ts';
import type { ApiUser } from './mappers.ts';

/**
 * Creates the first user, an ADMIN named Gatehouse Admin with `email`, and records USERS_CREATED as its
 * own act (nobody exists to have created it), inside the caller's transaction (tokens' bootstrapAdmin,
 * which checked that no user exists).
 */
export function createFirstAdmin(ctx: AppContext, email: string): ApiUser {
  const { users, events } = ctx.stores;
  const admin = users.create(
    { email, full_name: 'Gatehouse Admin', first_name: 'Gatehouse', last_name: 'Admin', position: 'Administrator', manager_id: null },
    ctx.clock.now(),
  );
  users.setRole(admin.user_id, 'ADMIN');
  events.record(actorFor(admin), 'USERS_CREATED', [
    { sub_event_type: 'USERS_CREATED', user_id: admin.user_id, user_name: admin.full_name, user_email: admin.email },
  ]);
  return users.get(admin.user_id)!;
}
