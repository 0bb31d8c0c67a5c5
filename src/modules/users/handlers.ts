// Users (created here, since no identity provider syncs them) and their remote accounts.
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { parse } from '../../http/parse.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { toApiRemoteUser, toApiUser } from './mappers.ts';
import { RemoteUserProviderParam } from './schemas.ts';
import { addRemoteUser, createUser, removeRemoteUser, renameUser, updateUser } from './service.ts';
import type { userRoutes } from './routes.ts';

export function registerUserRoutes(router: ApiRouter<typeof userRoutes>, ctx: AppContext): void {
  const { users } = ctx.stores;

  router.on('POST /v1/users', async (req) => ok(createUser(ctx, req.caller, await req.body())));

  router.on('GET /v1/users', (req) => {
    const query = req.query();
    const filter = { tagIds: query.tag_ids?.map((id) => id.toLowerCase()), managerId: query.manager_id, contains: query.contains || undefined };
    const rows = users.list(filter, ctx.pager.afterSeq('users', query), query.page_size + 1);
    return ok(ctx.pager.pageJson('users', query, rows, (row) => row.seq, toApiUser));
  });

  // Registered before /users/:user_id/… so "remote_users" is never read as a user id.
  router.on('GET /v1/users/remote_users', (req) => {
    const query = req.query();
    const filter = {
      providers: query.third_party_provider,
      userIds: query.user_id?.map((id) => id.toLowerCase()),
      remoteIds: query.remote_id,
    };
    const rows = users.listRemote(filter, ctx.pager.afterSeq('remote_users', query), query.page_size + 1);
    return ok(ctx.pager.page('remote_users', query, rows, (row) => row.seq, toApiRemoteUser));
  });

  router.on('POST /v1/users/remote_users', async (req) => {
    const body = await req.body();
    return ok(addRemoteUser(ctx, req.caller, body.user_id.toLowerCase(), body.third_party_provider, body.remote_id));
  });

  router.on('DELETE /v1/users/{user_id}/remote_users/{third_party_provider}', (req) => {
    const provider = parse(RemoteUserProviderParam, req.param('third_party_provider'), 'path');
    removeRemoteUser(ctx, req.caller, req.uuidParam('user_id'), provider);
    return done();
  });

  router.on('GET /v1/user', (req) => {
    const query = req.query();
    // The reference: user_id wins when both are given.
    const user = query.user_id !== undefined ? users.get(query.user_id.toLowerCase()) : users.getByEmail(query.email!);
    if (!user) throw new AppError('not_found', 'no user matches', [{ path: query.user_id !== undefined ? 'user_id' : 'email', message: 'no such user' }]);
    return ok(user);
  });

  // Gatehouse's extension: the reference has no way to change a user; offboarding happens here.
  router.on('PUT /v1/users/{user_id}', async (req) => {
    const id = req.uuidParam('user_id');
    return ok(updateUser(ctx, req.caller, id, await req.body()));
  });

  router.on('PUT /v1/users/{user_id}/name', async (req) => ok(renameUser(ctx, req.caller, req.uuidParam('user_id'), await req.body())));

  router.on('GET /v1/users/{user_id}', (req) => {
    const id = req.uuidParam('user_id');
    const user = users.get(id);
    if (!user) throw notFound('user', id);
    return ok(user);
  });
}
