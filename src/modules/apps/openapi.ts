// The apps module's operations in Gatehouse's API document (format: src/openapi/operations.ts).
import { defineOperations } from '../../openapi/operations.ts';
import { EmptyObject } from '../../openapi/schema.ts';
import { App, AppsList } from '../../openapi/components/catalogue.ts';
import { CreateAppBody, ListAppsQuery, UpdateAppBody } from './schemas.ts';

export const appOperations = defineOperations('apps', {
  'POST /v1/apps': {
    summary: 'Register an app',
    description: 'Nothing syncs apps into Gatehouse, so they are registered here.',
    extension: true,
    body: CreateAppBody,
    responses: { 200: App },
  },
  'GET /v1/apps': {
    summary: 'List apps',
    query: ListAppsQuery,
    responses: { 200: AppsList },
  },
  'GET /v1/apps/{app_id}': {
    summary: 'Get an app',
    responses: { 200: App },
  },
  'PUT /v1/apps/{app_id}': {
    summary: 'Update an app',
    extension: true,
    body: UpdateAppBody,
    responses: { 200: App },
  },
  'DELETE /v1/apps/{app_id}': {
    summary: 'Delete an app',
    description: 'Refused (`conflict`) while the app still holds resources or groups.',
    extension: true,
    responses: { 200: EmptyObject },
  },
});
