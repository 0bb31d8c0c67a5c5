// Tags as the reference has them: /tag (create, find, get, delete), /tags (list, attach, detach),
// and the tags of one user, group or resource.
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { fail } from '../../http/parse.ts';
import { done, ok, type ApiRouter } from '../../http/router.ts';
import { attachTag, createTag, deleteTag, detachTag, tagsOf } from './service.ts';
import { TAG_TARGETS, type TagTarget } from './store.ts';
import { toApiTag } from './mappers.ts';
import type { tagRoutes } from './routes.ts';

/** Path segment of each target kind: /tags/{tag_id}/users/{user_id} and /users/{user_id}/tags. */
const PLURAL: Record<TagTarget, string> = { user: 'users', group: 'groups', resource: 'resources' };

export function registerTagRoutes(router: ApiRouter<typeof tagRoutes>, ctx: AppContext): void {
  const { tags } = ctx.stores;

  // The reference keeps tag_key, tag_value and admin_owner_id as deprecated query parameters beside the
  // CreateTagInfo body; both are accepted, and for each field the body wins when both give it.
  router.on('POST /v1/tag', async (req) => {
    const query = req.query();
    const body = (await req.body()) ?? {};
    const key = body.tag_key ?? query.tag_key;
    if (key === undefined) fail('body', [{ path: 'tag_key', message: 'is required' }]);
    const adminOwnerId = body.admin_owner_id !== undefined ? body.admin_owner_id : (query.admin_owner_id ?? null);
    return ok(createTag(ctx, req.caller, {
      key,
      value: body.tag_value ?? query.tag_value ?? '',
      adminOwnerId: adminOwnerId?.toLowerCase() ?? null,
    }));
  });

  router.on('GET /v1/tag', (req) => {
    const query = req.query();
    const tag = tags.getByKeyValue(query.tag_key, query.tag_value);
    if (!tag) throw new AppError('not_found', 'no tag has this key and value', [{ path: 'tag_key', message: 'no tag with this key and value' }]);
    return ok(tag);
  });

  router.on('GET /v1/tag/{tag_id}', (req) => {
    const id = req.uuidParam('tag_id');
    const tag = tags.get(id);
    if (!tag) throw notFound('tag', id, 'tag_id');
    return ok(tag);
  });

  router.on('DELETE /v1/tag/{tag_id}', (req) => {
    deleteTag(ctx, req.caller, req.uuidParam('tag_id'));
    return done();
  });

  router.on('GET /v1/tags', (req) => {
    const query = req.query();
    const rows = tags.list(ctx.pager.afterSeq('tags', query), query.page_size + 1);
    return ok(ctx.pager.page('tags', query, rows, (row) => row.seq, toApiTag));
  });

  for (const kind of Object.keys(TAG_TARGETS) as TagTarget[]) {
    const column = TAG_TARGETS[kind].column;
    router.on(`POST /v1/tags/{tag_id}/${PLURAL[kind]}/{${column}}`, async (req) => {
      const tagId = req.uuidParam('tag_id');
      const targetId = req.uuidParam(column);
      await req.body();
      attachTag(ctx, req.caller, tagId, kind, targetId);
      return done();
    });
    router.on(`DELETE /v1/tags/{tag_id}/${PLURAL[kind]}/{${column}}`, (req) => {
      detachTag(ctx, req.caller, req.uuidParam('tag_id'), kind, req.uuidParam(column));
      return done();
    });
    // The schema names the array `tags` (a reference sample says `results`); the schema wins.
    router.on(`GET /v1/${PLURAL[kind]}/{${column}}/tags`, (req) => ok({ tags: tagsOf(ctx, kind, req.uuidParam(column)) }));
  }
}
