// What resources' and groups' schemas share: the access levels each offers, as create and update
// bodies give them, and the list filters both have beyond the reference (Gatehouse extensions).
import * as v from 'valibot';
import { Text, Uuid } from '../../http/common-schemas.ts';

/** Remote ids appear as numbers in the reference's samples; they are kept as text. */
export const RemoteText = v.pipe(
  v.union([v.string(), v.number()], 'must be a string'),
  v.transform(String),
  v.maxLength(1000, 'must be at most 1000 characters'),
);

/**
 * The levels besides the default one; replaces the set. Answers list the default level ('' / '')
 * first, and a client sending an item back whole sends it too: that entry is accepted and dropped,
 * since every item offers the default level anyway.
 */
export const AccessLevels = v.pipe(
  v.array(
    v.pipe(
      v.object({ access_level_name: Text(200), access_level_remote_id: RemoteText }),
      v.forward(
        v.check(
          (level) => level.access_level_remote_id !== '' || level.access_level_name === '',
          'must not be empty unless access_level_name is empty too (the default level)',
        ),
        ['access_level_remote_id'],
      ),
    ),
    'must be a list of access levels',
  ),
  v.maxLength(1001, 'must list at most 1000 access levels besides the default one'),
  v.check((levels) => new Set(levels.map((level) => level.access_level_remote_id)).size === levels.length, 'must not list a remote id twice'),
  v.transform((levels) => levels.filter((level) => level.access_level_remote_id !== '')),
  v.maxLength(1000, 'must list at most 1000 access levels besides the default one'),
);

/** The access levels as a body gives them, parsed. */
export type AccessLevelsInput = v.InferOutput<typeof AccessLevels>;

/**
 * The filters GET /v1/resources and GET /v1/groups have beyond the reference: what one owner
 * administers (the console's Teams page, named as GET /v1/apps names it) and one app's items (the
 * console's app page). `items` names the list in the document's words ("resources", "groups").
 */
export const itemListExtensionFilters = (items: 'resources' | 'groups') => ({
  owner_filter: v.optional(v.pipe(Uuid, v.metadata({ openapi: {
    type: 'string', format: 'uuid', 'x-gatehouse-extension': true,
    description: 'Only what this owner administers (as GET /v1/apps filters apps). An extension: the reference has no such filter.',
  } }))),
  app_id: v.optional(v.pipe(Uuid, v.metadata({ openapi: {
    type: 'string', format: 'uuid', 'x-gatehouse-extension': true,
    description: `Only the ${items} of this app. An extension: the reference has no such filter.`,
  } }))),
});
