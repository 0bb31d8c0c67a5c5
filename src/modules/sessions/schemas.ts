// Valibot schemas for sessions.
import { MAX_MINUTES } from '../../lib/durations.ts';
import * as v from 'valibot';
import { PageQueryEntries, Uuid } from '../../http/common-schemas.ts';
import { AccessLevelRemoteId } from '../access/schemas.ts';

/** Sessions last this long unless the caller says otherwise (and never past the access they ride on). */
export const SESSION_MINUTES_DEFAULT = 60;

export const ListSessionsQuery = v.object({
  ...PageQueryEntries,
  resource_id: v.pipe(v.string('is required, once'), v.uuid('must be a UUID')),
  user_id: v.optional(v.pipe(v.string('must be given once'), v.uuid('must be a UUID'))),
});

export const OpenSessionBody = v.object({
  resource_id: Uuid,
  user_id: v.optional(Uuid),
  access_level_remote_id: v.optional(AccessLevelRemoteId, ''),
  duration_minutes: v.optional(
    v.pipe(
      v.number('must be a number'),
      v.integer('must be a whole number'),
      v.minValue(1, 'must be at least 1'),
      v.maxValue(MAX_MINUTES, `must be at most ${MAX_MINUTES}`),
    ),
    SESSION_MINUTES_DEFAULT,
  ),
});
