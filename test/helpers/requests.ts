// Builders for access-request tests: owners, requestable items, and requests (members: fixtures' createMember).
import assert from 'node:assert/strict';
import type { TestApp } from './app.ts';
import type { ApiClient } from './client.ts';
import { createOwner, createResource } from './fixtures.ts';

/** An owner whose users are `members`. */
export async function ownerOf(app: TestApp, ...members: { user_id: string }[]) {
  return createOwner(app.api, { user_ids: members.map((m) => m.user_id) });
}

/** A request configuration with every required field; override what the test is about. */
export const config = (overrides: Record<string, unknown> = {}) => ({
  allow_requests: true, auto_approval: false, require_mfa_to_request: false, require_support_ticket: false,
  priority: 0, reviewer_stages: [], ...overrides,
});

export const stage = (overrides: Record<string, unknown> = {}) => ({
  stage: 1, operator: 'OR', require_manager_approval: false, owner_ids: [], ...overrides,
});

/** A resource administered by `adminOwnerId` with these request configurations (none: the defaults). */
export async function requestableResource(app: TestApp, adminOwnerId: string, configurations?: unknown[], overrides: Record<string, unknown> = {}) {
  return createResource(app.api, { admin_owner_id: adminOwnerId, ...(configurations && { request_configurations: configurations }), ...overrides });
}

/** POST /requests with a valid body around `body`. */
export function postRequest(api: ApiClient, body: Record<string, unknown>, query?: Record<string, string>) {
  return api.request('POST', '/requests', { resources: [], groups: [], reason: 'need it for work', duration_minutes: 60, ...body }, { query });
}

/** Creates a request that must succeed; returns its id. */
export async function makeRequest(api: ApiClient, body: Record<string, unknown>): Promise<string> {
  const res = await postRequest(api, body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.id as string;
}

/** The reviewers of each item's stages: [[ [ids of stage 1], [ids of stage 2] ], …]. */
export function reviewerIds(request: { reviewer_stages: { stages: { reviewers: { id: string }[] }[] }[] }): string[][][] {
  return request.reviewer_stages.map((item) => item.stages.map((s) => s.reviewers.map((r) => r.id).sort()));
}
