// Use cases that write apps: check the owner, then one transaction with the audit event.
import type { AppContext } from '../../context.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import type { Actor } from '../events/store.ts';
import type { ApiApp } from './mappers.ts';
import type { UpdateAppInput } from './schemas.ts';

export interface CreateAppInput {
  name: string;
  description: string;
  app_type: string;
  admin_owner_id: string;
}

/**
 * Registers an app (nothing syncs apps here) and records APPS_CREATED.
 * Throws not_found naming admin_owner_id when that owner does not exist.
 */
export function createApp(ctx: AppContext, actor: Actor, input: CreateAppInput): ApiApp {
  const { apps, owners, events } = ctx.stores;
  const ownerId = input.admin_owner_id.toLowerCase();
  return ctx.db.transaction(() => {
    if (!owners.exists(ownerId)) throw notFound('owner', ownerId, 'admin_owner_id');
    const app = apps.create({ ...input, admin_owner_id: ownerId }, ctx.clock.now());
    events.record(actor, 'APPS_CREATED', [
      { sub_event_type: 'APPS_CREATED', app_id: app.app_id, app_name: app.name, app_type: app.app_type, owner_id: ownerId },
    ]);
    return app;
  }).immediate();
}

/**
 * Renames, re-describes or re-owns an app and records APPS_UPDATED.
 * Throws not_found for an unknown app, or naming admin_owner_id for an unknown owner; validation_failed
 * naming app_type when it differs from the stored type.
 */
export function updateApp(ctx: AppContext, actor: Actor, appId: string, input: UpdateAppInput): ApiApp {
  const { apps, owners, events } = ctx.stores;
  return ctx.db.transaction(() => {
    const app = apps.get(appId);
    if (!app) throw notFound('app', appId);
    if (input.app_type !== undefined && input.app_type !== app.app_type) {
      throw invalidField('app_type', `cannot change (it is ${app.app_type}); register a new app instead`);
    }
    const ownerId = input.admin_owner_id?.toLowerCase() ?? app.admin_owner_id;
    if (!owners.exists(ownerId)) throw notFound('owner', ownerId, 'admin_owner_id');
    const updated = apps.update(
      appId,
      { name: input.name ?? app.name, description: input.description ?? app.description, app_type: app.app_type, admin_owner_id: ownerId },
      ctx.clock.now(),
    );
    events.record(actor, 'APPS_UPDATED', [
      { sub_event_type: 'APPS_UPDATED', app_id: appId, app_name: updated.name, owner_id: ownerId },
    ]);
    return updated;
  }).immediate();
}

/**
 * Deletes an app that holds no resources or groups and records APPS_DELETED.
 * Throws not_found for an unknown app, conflict (with the counts) while anything lives in it.
 */
export function deleteApp(ctx: AppContext, actor: Actor, appId: string): void {
  const { apps, events } = ctx.stores;
  ctx.db.transaction(() => {
    const app = apps.get(appId);
    if (!app) throw notFound('app', appId);
    const { resources, groups } = apps.contents(appId);
    if (resources + groups > 0) {
      const what = `${resources} resource(s) and ${groups} group(s)`;
      throw new AppError('conflict', `app ${appId} still holds ${what}; delete them first`, [{ path: 'app_id', message: `still holds ${what}` }]);
    }
    apps.delete(appId);
    events.record(actor, 'APPS_DELETED', [{ sub_event_type: 'APPS_DELETED', app_id: appId, app_name: app.name }]);
  }).immediate();
}
