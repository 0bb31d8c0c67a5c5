// Organization roles, a closed set. ADMIN may do everything; MEMBER may read, ask for access and
// review what they are asked to review. Which route needs which role is in src/http/policy.ts.
export const ORGANIZATION_ROLES = ['ADMIN', 'MEMBER'] as const;
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number];

/** The role a user gets when nobody names one: the least that still lets them ask for access. */
export const DEFAULT_ORGANIZATION_ROLE: OrganizationRole = 'MEMBER';
