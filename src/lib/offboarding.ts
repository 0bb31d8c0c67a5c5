// Which user statuses mean offboarded: the one rule the token check, the access graph, requests and notices share.

/** Statuses whose holder holds nothing: their edges end when the status is set, no grant is accepted, and their tokens and sessions stop working. */
export const OFFBOARDED_STATUSES = ['SUSPENDED', 'DEPROVISIONED', 'DELETED'] as const;

/** Whether a user of this status is offboarded. */
export const isOffboarded = (status: string): boolean => (OFFBOARDED_STATUSES as readonly string[]).includes(status);
