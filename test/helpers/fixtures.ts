// Fixture builders: valid objects by default, any field overridable.
import assert from 'node:assert/strict';
import type { ApiClient } from './client.ts';

/** A well-formed id that no object has: the unknown id of every 404 case. */
export const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

let counter = 0;
/** A short string unique within this test process. */
export const unique = (prefix: string): string => `${prefix}-${process.pid}-${++counter}`;

export interface TestUser {
  user_id: string;
  email: string;
  full_name: string;
  organization_role: 'ADMIN' | 'MEMBER';
}

/** Creates a user through the API (a MEMBER unless `organization_role` says otherwise) and returns its User object. */
export async function createUser(api: ApiClient, overrides: Record<string, unknown> = {}) {
  const name = unique('user');
  const res = await api.post('/users', { email: `${name}@example.com`, full_name: `Test ${name}`, ...overrides });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as TestUser;
}

/** A user, one token of theirs and a client calling as them. */
export interface Signed {
  user: TestUser;
  /** The user's, repeated here: a Signed goes wherever a `{ user_id }` is wanted (ownerOf, reviewers). */
  user_id: string;
  full_name: string;
  secret: string;
  tokenId: string;
  api: ApiClient;
}

/** Creates a user of `role` through `admin` and a token for them (FULL_ACCESS unless `access_level` says otherwise). */
async function createSigned(admin: ApiClient, role: 'ADMIN' | 'MEMBER', overrides: Record<string, unknown>, token: Record<string, unknown>): Promise<Signed> {
  const user = await createUser(admin, { ...overrides, organization_role: role });
  const { secret, tokenId } = await createToken(admin, { user_id: user.user_id, ...token });
  return { user, user_id: user.user_id, full_name: user.full_name, secret, tokenId, api: admin.as(secret) };
}

/** A MEMBER (reads, asks for access, reviews where asked) with a FULL_ACCESS token, created by the admin client `admin`. */
export const createMember = (admin: ApiClient, overrides: Record<string, unknown> = {}, token: Record<string, unknown> = {}) =>
  createSigned(admin, 'MEMBER', overrides, token);

/** A second organization ADMIN with a FULL_ACCESS token, created by the admin client `admin`. */
export const createAdmin = (admin: ApiClient, overrides: Record<string, unknown> = {}, token: Record<string, unknown> = {}) =>
  createSigned(admin, 'ADMIN', overrides, token);

/** Issues a token through the API and returns its secret and id. */
export async function createToken(api: ApiClient, overrides: Record<string, unknown> = {}) {
  const res = await api.post('/tokens', { token_label: unique('token'), ...overrides });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { secret: res.body.token as string, tokenId: res.body.token_id as string };
}

// Catalogue builders. Each creates what it depends on when the override does not name it.

/** POST /owners → Owner. */
export async function createOwner(api: ApiClient, overrides: Record<string, unknown> = {}) {
  const res = await api.post('/owners', { name: unique('owner'), user_ids: [], ...overrides });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { owner_id: string; name: string };
}

/** POST /apps → App (a CUSTOM app owned by a new owner unless given). */
export async function createApp(api: ApiClient, overrides: Record<string, unknown> = {}) {
  const admin_owner_id = overrides.admin_owner_id ?? (await createOwner(api)).owner_id;
  const res = await api.post('/apps', { name: unique('app'), description: 'test app', app_type: 'CUSTOM', admin_owner_id, ...overrides });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { app_id: string; name: string; admin_owner_id: string };
}

/** POST /resources → Resource (CUSTOM, in a new app unless given). */
export async function createResource(api: ApiClient, overrides: Record<string, unknown> = {}) {
  const app_id = overrides.app_id ?? (await createApp(api)).app_id;
  const res = await api.post('/resources', { name: unique('resource'), resource_type: 'CUSTOM', app_id, ...overrides });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { resource_id: string; name: string; app_id: string; admin_owner_id: string };
}

/** POST /groups → Group (OPAL_GROUP, in a new app unless given). */
export async function createGroup(api: ApiClient, overrides: Record<string, unknown> = {}) {
  const app_id = overrides.app_id ?? (await createApp(api)).app_id;
  const res = await api.post('/groups', { name: unique('group'), group_type: 'OPAL_GROUP', app_id, ...overrides });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { group_id: string; name: string; app_id: string; admin_owner_id: string };
}

/** POST /message-channels → MessageChannel (a SLACK channel with a unique remote id). */
export async function createMessageChannel(api: ApiClient, overrides: Record<string, unknown> = {}) {
  const res = await api.post('/message-channels', { third_party_provider: 'SLACK', remote_id: unique('channel'), ...overrides });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { message_channel_id: string; remote_id: string };
}

/** POST /tag → Tag. */
export async function createTag(api: ApiClient, overrides: Record<string, unknown> = {}) {
  const res = await api.post('/tag', { tag_key: unique('key'), tag_value: 'v', ...overrides });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { tag_id: string; key: string; value: string };
}

/** POST /bundles → Bundle (201). */
export async function createBundle(api: ApiClient, overrides: Record<string, unknown> = {}) {
  const admin_owner_id = overrides.admin_owner_id ?? (await createOwner(api)).owner_id;
  const res = await api.post('/bundles', { name: unique('bundle'), admin_owner_id, ...overrides });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { bundle_id: string; id: string; name: string };
}
