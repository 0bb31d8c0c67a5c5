// The access level every resource and group offers, whatever else it lists: the default one, remote
// id '' and no name (docs/access-graph.md). One definition, which the resources' and groups' answers and
// the access store's level lists start with.

/** An access level as the reference shows it on an item (ResourceAccessLevel). */
export interface AccessLevel {
  access_level_name: string;
  access_level_remote_id: string;
}

/** The default access level (frozen: it is shared by every answer that lists it). */
export const DEFAULT_ACCESS_LEVEL: Readonly<AccessLevel> = Object.freeze({ access_level_name: '', access_level_remote_id: '' });
