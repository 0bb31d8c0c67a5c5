// Fixture builders: valid objects by default, any field overridable.
import assert from 'node:assert/strict';
import type { ApiClient } from './client.ts';

let counter = 0;
/** A short string unique within this test process. */
export const unique = (prefix: string): string => `${prefix}-${process.pid}-${++counter}`;

/** Creates a user through the API and returns its User object. */
export async function createUser(api: ApiClient, overrides: Record<string, unknown> = {}) {
  const name = unique('user');
  const res = await api.post('/users', { email: `${name}@example.com`, full_name: `Test ${name}`, ...overrides });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { user_id: string; email: string; full_name: string };
}

/** Issues a token through the API and returns its secret and id. */
export async function createToken(api: ApiClient, overrides: Record<string, unknown> = {}) {
  const res = await api.post('/tokens', { token_label: unique('token'), ...overrides });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { secret: res.body.token as string, tokenId: res.body.token_id as string };
}
