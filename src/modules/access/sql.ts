// The one definition of a live access edge as SQL, which the access stores and the stores that read
// the access graph (visibility's "who sees an item") embed; other areas import this, never a store.

/** An edge is live at @now until its expiration_date; a row at or past it is dead everywhere. */
export const LIVE = (alias: string) => `(${alias}.expiration_date IS NULL OR ${alias}.expiration_date > @now)`;
