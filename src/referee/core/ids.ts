/**
 * The ids the referee gives out, and what may be one: anything else names nothing, and is
 * refused before it goes anywhere near the database.
 */

/** Game ids are base64url (12 characters when made here). */
export const isGameId = (id: unknown): id is string => typeof id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(id);

/** Tournament ids are `t-` and base64url. */
export const isTournamentId = (id: unknown): id is string => typeof id === 'string' && /^t-[A-Za-z0-9_-]{1,64}$/.test(id);
