// Valibot schemas for POST /queries/run: the reference's NODE query, its recursive filters and paging.
import * as v from 'valibot';
import { Text, Uuid } from '../../http/common-schemas.ts';
import { GROUP_TYPES } from '../groups/kinds.ts';
import { RESOURCE_TYPES } from '../resources/kinds.ts';

export const ENTITY_TYPES = ['USER', 'GROUP', 'RESOURCE'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** Every item type an entity can have: users, the group types and the resource types (the reference's EntityItemTypeEnum is a subset). */
export const ENTITY_ITEM_TYPES = [...new Set(['USER', 'SERVICE_USER', ...GROUP_TYPES, ...RESOURCE_TYPES])] as [string, ...string[]];

export const STRING_MATCH_TYPES = ['CONTAINS', 'EQUALS', 'STARTS_WITH', 'ENDS_WITH'] as const;

/** The reference's AccessEntityFilters (every field optional; nested allOf / anyOf / not). */
export interface EntityFilters {
  entityTypes?: EntityType[] | undefined;
  entityItemTypes?: string[] | undefined;
  entityName?: { stringMatchType: (typeof STRING_MATCH_TYPES)[number]; string: string } | undefined;
  entityTag?: { key: string; value?: string | undefined; connectionId?: string | undefined } | undefined;
  entityIDs?: string[] | undefined;
  importedFromApp?: string[] | undefined;
  roleRemoteIds?: string[] | undefined;
  roleNames?: string[] | undefined;
  allOf?: EntityFilters[] | undefined;
  anyOf?: EntityFilters[] | undefined;
  not?: EntityFilters | undefined;
}

const List = <S extends v.GenericSchema>(item: S, max = 1000) =>
  v.pipe(v.array(item, 'must be a list'), v.maxLength(max, `must list at most ${max} values`));
const LowerUuid = v.pipe(Uuid, v.toLowerCase());

// The title names it in the API document (a recursive schema is a component there).
const EntityFiltersSchema: v.GenericSchema<unknown, EntityFilters> = v.pipe(v.object({
  entityTypes: v.optional(List(v.picklist(ENTITY_TYPES, `must be one of ${ENTITY_TYPES.join(', ')}`))),
  entityItemTypes: v.optional(List(v.picklist(ENTITY_ITEM_TYPES, 'must be a user, group or resource type'))),
  entityName: v.optional(
    v.object({
      stringMatchType: v.picklist(STRING_MATCH_TYPES, `must be one of ${STRING_MATCH_TYPES.join(', ')}`),
      string: Text(1000),
    }),
  ),
  entityTag: v.optional(
    v.object({
      key: v.pipe(Text(200), v.minLength(1, 'must not be empty')),
      value: v.optional(Text(200)),
      connectionId: v.optional(LowerUuid),
    }),
  ),
  entityIDs: v.optional(List(LowerUuid)),
  importedFromApp: v.optional(List(LowerUuid)),
  roleRemoteIds: v.optional(List(Text(1000))),
  roleNames: v.optional(List(Text(1000))),
  allOf: v.optional(List(v.lazy(() => EntityFiltersSchema), 100)),
  anyOf: v.optional(List(v.lazy(() => EntityFiltersSchema), 100)),
  not: v.optional(v.lazy(() => EntityFiltersSchema)),
}), v.title('AccessEntityFilters'));

export const RunQueryBody = v.object({
  type: v.picklist(['NODE'], 'must be NODE (the only query type)'),
  query: v.optional(
    v.object({
      nodeFilters: v.optional(EntityFiltersSchema),
      accessFilters: v.optional(
        v.object({
          isAccessibleBy: v.optional(EntityFiltersSchema),
          hasAccessTo: v.optional(EntityFiltersSchema),
        }),
      ),
    }),
    {},
  ),
  first: v.optional(
    v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'), v.maxValue(1000, 'must be at most 1000')),
    200,
  ),
  after: v.optional(v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'))),
});
export type RunQueryInput = v.InferOutput<typeof RunQueryBody>;
