// The access levels a resource or group offers, as create and update bodies give them (a Gatehouse
// extension shared by both kinds of item).
import * as v from 'valibot';
import { Text } from '../../http/common-schemas.ts';

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
