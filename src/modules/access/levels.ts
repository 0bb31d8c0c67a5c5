// Replacing the access levels a resource or group offers, without leaving access at a level that no
// longer exists or under a name the level no longer has: edges, bundle items, pending request items
// and open sessions copy their level's remote id and name (access/store.ts LEVEL_COPIES).
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import type { AccessLevel } from '../items/levels.ts';

/**
 * Sets the non-default levels `type` item `itemId` offers to `levels`. A level dropped while live
 * access, a bundle item or a pending request still uses it → conflict naming `path` (nothing changes:
 * the caller's transaction rolls back); a level kept under a new name renames every current copy.
 */
export function replaceAccessLevels(ctx: AppContext, type: 'resource' | 'group', itemId: string, levels: AccessLevel[], path: string): void {
  const { access, resources } = ctx.stores;
  const before = type === 'resource' ? resources.accessLevels(itemId) : access.groupLevels(itemId);
  const wanted = new Map(levels.map((level) => [level.access_level_remote_id, level.access_level_name]));
  const now = ctx.clock.now();
  for (const { access_level_remote_id: level, access_level_name: name } of before) {
    if (level === '') continue; // the default level is always offered
    const next = wanted.get(level);
    if (next === undefined) {
      const uses = access.levelUses(type, itemId, level, now);
      if (uses > 0) {
        const message = `access level ${JSON.stringify(level)} is still used by ${uses} grant${uses === 1 ? '' : 's'}, bundle item${uses === 1 ? '' : 's'} or pending request${uses === 1 ? '' : 's'}; end them (or keep the level) first`;
        throw new AppError('conflict', message, [{ path, message }]);
      }
    } else if (next !== name) {
      access.renameLevel(type, itemId, level, next, now);
    }
  }
  if (type === 'resource') access.setResourceLevels(itemId, levels);
  else access.setGroupLevels(itemId, levels);
}
