// The one definition of a whole review as SQL, which the access-reviews store and the uar-decisions
// store (reviews to decide and to remind of) embed; other areas import this, never the store.

/**
 * SQL: the review `alias` (a row of uars) is whole — its snapshot is not still being written in slices.
 * Every read of reviews says it, so nobody sees (or decides, or is reminded of) half a review.
 */
export const reviewIsComplete = (alias: string) => `NOT EXISTS (SELECT 1 FROM uar_snapshots_in_progress w WHERE w.uar_id = ${alias}.id)`;
