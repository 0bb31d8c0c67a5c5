// Who may break glass on an item, set by its owners (or an admin) without the admins' bulk update
// (docs/break-glass.md): PUT /v1/resources/{resource_id}/break-glass and its group twin. The item is
// written through its own area's service (RESOURCES_UPDATED / GROUPS_UPDATED), as the bulk update does.
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Caller } from '../../http/types.ts';
import { groupState, reviseGroups } from '../groups/service.ts';
import { ownerHasUser } from '../owners/service.ts';
import { resourceState, reviseResources } from '../resources/service.ts';
import type { RequestSettings } from '../request-settings/columns.ts';
import { checkRequestSettingReferences } from '../request-settings/service.ts';
import type { BreakGlassSettingsInput } from './schemas.ts';

type BreakGlassSettings = Pick<RequestSettings, 'break_glass_user_ids' | 'break_glass_group_ids' | 'break_glass_max_minutes'>;

const settingsOf = (s: RequestSettings): BreakGlassSettings => ({
  break_glass_user_ids: s.break_glass_user_ids, break_glass_group_ids: s.break_glass_group_ids, break_glass_max_minutes: s.break_glass_max_minutes,
});

/**
 * Changes the fields `input` gives on the item and records its kind's _UPDATED event; answers the three
 * fields as they now stand. A user of the item's admin owner or an admin may (403 otherwise). Throws 404
 * naming the path parameter (unknown item) or `break_glass_user_ids.N` / `break_glass_group_ids.N`, and
 * 409 while a configuration template sets them (change the template).
 */
export function setBreakGlassSettings(ctx: AppContext, caller: Caller, kind: 'resource' | 'group', id: string, input: BreakGlassSettingsInput): BreakGlassSettings {
  return ctx.db.transaction(() => {
    const state = kind === 'resource' ? resourceState(ctx, id) : groupState(ctx, id);
    if (!state) throw notFound(kind, id, `${kind}_id`);
    if (caller.role !== 'ADMIN' && !ownerHasUser(ctx, state.admin_owner_id, caller.userId)) {
      throw new AppError('forbidden', `only the users of the ${kind}'s admin owner, or an administrator, say who may break glass on it`, [{ path: `${kind}_id`, message: 'is not administered by a team you are in' }]);
    }
    const template = state.settings.configuration_template_id;
    if (template !== null) {
      const field = Object.keys(input)[0] ?? 'break_glass_user_ids';
      throw new AppError('conflict', `${field} is set by configuration template ${template}; change the template`, [{ path: field, message: `is set by configuration template ${template}` }]);
    }
    checkRequestSettingReferences(ctx, state.settings, input);
    const settings: RequestSettings = {
      ...state.settings,
      break_glass_user_ids: input.break_glass_user_ids ?? state.settings.break_glass_user_ids,
      break_glass_group_ids: input.break_glass_group_ids ?? state.settings.break_glass_group_ids,
      break_glass_max_minutes: input.break_glass_max_minutes ?? state.settings.break_glass_max_minutes,
    };
    const revision = { id, updatedFields: Object.keys(input).join(','), detail: { via: 'break-glass settings' } };
    if (kind === 'resource') reviseResources(ctx, caller, [{ ...revision, state: { ...resourceState(ctx, id)!, settings } }]);
    else reviseGroups(ctx, caller, [{ ...revision, state: { ...groupState(ctx, id)!, settings } }]);
    return settingsOf(settings);
  }).immediate();
}
