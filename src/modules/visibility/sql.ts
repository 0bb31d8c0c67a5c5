// The one definition of "who sees an item" as SQL, which the list statements of resources, groups,
// bundles, access rules and queries embed: the visibility area lends it to those stores, which import
// this file and never the visibility store (docs/contributing.md, "Stores belong to their area").
import { LIVE } from '../access/sql.ts';

/**
 * What can have a visibility; table and column names come from here, never from input. `holds` says
 * how a user holds an item of the kind (null: nothing holds a bundle or a template). Templates only
 * store a visibility to hand on to the items linked to them: nothing is filtered by it.
 */
export const VISIBILITY_KINDS = {
  resource: { table: 'resources', links: 'resource_visibility_groups', itemColumn: 'resource_id', groupColumn: 'group_id', holds: 'resource' },
  group: { table: 'groups', links: 'group_visibility_groups', itemColumn: 'group_id', groupColumn: 'visibility_group_id', holds: 'group' },
  bundle: { table: 'bundles', links: 'bundle_visibility_groups', itemColumn: 'bundle_id', groupColumn: 'group_id', holds: null },
  configuration_template: {
    table: 'configuration_templates', links: 'configuration_template_visibility_groups', itemColumn: 'configuration_template_id', groupColumn: 'group_id', holds: null,
  },
} as const;
export type VisibilityKind = keyof typeof VISIBILITY_KINDS;
/** The kinds whose reads are filtered by visibility. */
export type VisibleKind = Exclude<VisibilityKind, 'configuration_template'>;

/**
 * The groups user @viewer is an effective member of at @now (direct, through nesting or by rule; the
 * access graph's definition), as a CTE named viewer_groups. Goes after `WITH RECURSIVE`.
 */
export const VIEWER_GROUPS_CTE = `
  viewer_groups(group_id) AS (
    SELECT gu.group_id FROM group_users gu WHERE gu.user_id = @viewer AND ${LIVE('gu')}
    UNION
    SELECT gg.containing_group_id FROM viewer_groups vg JOIN group_groups gg ON gg.group_id = vg.group_id WHERE ${LIVE('gg')}
  )`;

/**
 * The condition that user @viewer sees the row of `kind` in the query's `table` (which must be named
 * by its own name, and the query must define VIEWER_GROUPS_CTE): the item is GLOBAL, or the viewer is
 * in one of its visibility groups, is a user of its admin owner (a listed user or, for an owner with
 * a source group, a member of that group: owners/service.ts ownerUserIds), or holds it (live at @now). Admins
 * are never filtered: callers use a statement without this condition for them.
 * Each test is a correlated EXISTS on the row's own keys (an index lookup, asked only while the ones
 * before it failed): building IN (…) lists of everything the viewer's groups hold cost 151–170 µs for
 * one LIMITED item, the EXISTS form 15 µs, with the same answers.
 */
export function visibleToViewer(kind: VisibleKind): string {
  const { table, links, itemColumn, groupColumn, holds } = VISIBILITY_KINDS[kind];
  const held =
    holds === 'resource'
      ? `OR EXISTS (SELECT 1 FROM resource_users ru WHERE ru.user_id = @viewer AND ru.resource_id = ${table}.id AND ${LIVE('ru')})
         OR EXISTS (SELECT 1 FROM group_resources gr WHERE gr.resource_id = ${table}.id AND gr.group_id IN (SELECT group_id FROM viewer_groups) AND ${LIVE('gr')})`
      : holds === 'group'
        ? `OR ${table}.id IN (SELECT group_id FROM viewer_groups)`
        : '';
  return `(${table}.visibility = 'GLOBAL'
    OR EXISTS (SELECT 1 FROM ${links} l WHERE l.${itemColumn} = ${table}.id AND l.${groupColumn} IN (SELECT group_id FROM viewer_groups))
    OR EXISTS (SELECT 1 FROM owner_users ou JOIN owners o ON o.id = ou.owner_id
               WHERE ou.owner_id = ${table}.admin_owner_id AND ou.user_id = @viewer AND o.source_group_id IS NULL)
    OR EXISTS (SELECT 1 FROM owners o WHERE o.id = ${table}.admin_owner_id AND o.source_group_id IN (SELECT group_id FROM viewer_groups))
    ${held})`;
}

/** Who is looking: the user and the time their memberships are read at. */
export interface Viewer {
  userId: string;
  now: Date;
}

/** The named parameters a statement embedding visibleToViewer needs. */
export const viewerParams = (viewer: Viewer) => ({ viewer: viewer.userId, now: viewer.now.toISOString() });
