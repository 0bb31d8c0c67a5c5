// The tags area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { PaginatedTagsList, Tag, TagsList } from './responses.ts';
import { AttachTagBody, CreateTagBody, CreateTagQuery, GetTagQuery, ListTagsQuery } from './schemas.ts';

const attach = (what: string) => ({
  summary: `Tag a ${what}`,
  description: 'Tagging twice is refused (`conflict`). The body is optional and ignored.',
  body: AttachTagBody,
  responses: { 200: EmptyObject },
});
const detach = (what: string) => ({ summary: `Untag a ${what}`, responses: { 200: EmptyObject } });
const tagsOf = (what: string) => ({ summary: `List a ${what}'s tags`, responses: { 200: TagsList } });

export const tagRoutes = defineRoutes('tags', {
  'POST /v1/tag': {
    role: 'admin',
    summary: 'Create a tag',
    description:
      'A key and value name a tag once. The fields may come in the body or, as the reference\'s deprecated form, ' +
      'in the query string; the body wins for each field given in both.',
    query: CreateTagQuery,
    body: CreateTagBody,
    responses: { 200: Tag },
  },
  'GET /v1/tag': {
    role: 'read',
    summary: 'Find a tag by key and value',
    query: GetTagQuery,
    errors: ['not_found'],
    responses: { 200: Tag },
  },
  'GET /v1/tag/{tag_id}': { role: 'read', items: { tag_id: null }, summary: 'Get a tag', responses: { 200: Tag } },
  'DELETE /v1/tag/{tag_id}': { role: 'admin', items: { tag_id: null }, summary: 'Delete a tag', description: 'Also removes it from everything it is on.', responses: { 200: EmptyObject } },
  'GET /v1/tags': { role: 'read', summary: 'List tags', query: ListTagsQuery, responses: { 200: PaginatedTagsList } },
  'POST /v1/tags/{tag_id}/users/{user_id}': { ...attach('user'), role: 'admin', items: { tag_id: null, user_id: null } },
  'DELETE /v1/tags/{tag_id}/users/{user_id}': { ...detach('user'), role: 'admin', items: { tag_id: null, user_id: null } },
  'GET /v1/users/{user_id}/tags': { ...tagsOf('user'), role: 'read', items: { user_id: null } },
  'POST /v1/tags/{tag_id}/groups/{group_id}': { ...attach('group'), role: 'admin', items: { tag_id: null, group_id: 'group' } },
  'DELETE /v1/tags/{tag_id}/groups/{group_id}': { ...detach('group'), role: 'admin', items: { tag_id: null, group_id: 'group' } },
  'GET /v1/groups/{group_id}/tags': { ...tagsOf('group'), role: 'read', items: { group_id: 'group' } },
  'POST /v1/tags/{tag_id}/resources/{resource_id}': { ...attach('resource'), role: 'admin', items: { tag_id: null, resource_id: 'resource' } },
  'DELETE /v1/tags/{tag_id}/resources/{resource_id}': { ...detach('resource'), role: 'admin', items: { tag_id: null, resource_id: 'resource' } },
  'GET /v1/resources/{resource_id}/tags': { ...tagsOf('resource'), role: 'read', items: { resource_id: 'resource' } },
});
