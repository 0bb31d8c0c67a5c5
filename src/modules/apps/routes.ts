// The apps area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { EmptyObject } from '../../openapi/responses.ts';
import { App, AppsList } from './responses.ts';
import { CreateAppBody, ListAppsQuery, UpdateAppBody } from './schemas.ts';

export const appRoutes = defineRoutes('apps', {
  'POST /v1/apps': {
    role: 'admin',
    summary: 'Register an app',
    description: 'Nothing syncs apps into Gatehouse, so they are registered here.',
    extension: true,
    body: CreateAppBody,
    responses: { 200: App },
  },
  'GET /v1/apps': {
    role: 'read',
    summary: 'List apps',
    query: ListAppsQuery,
    responses: { 200: AppsList },
  },
  'GET /v1/apps/{app_id}': {
    role: 'read', items: { app_id: null },
    summary: 'Get an app',
    responses: { 200: App },
  },
  'PUT /v1/apps/{app_id}': {
    role: 'admin', items: { app_id: null },
    summary: 'Update an app',
    extension: true,
    body: UpdateAppBody,
    responses: { 200: App },
  },
  'DELETE /v1/apps/{app_id}': {
    role: 'admin', items: { app_id: null },
    summary: 'Delete an app',
    description: 'Refused (`conflict`) while the app still holds resources or groups.',
    extension: true,
    responses: { 200: EmptyObject },
  },
});
