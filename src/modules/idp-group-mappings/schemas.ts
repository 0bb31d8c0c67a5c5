// Valibot schemas for identity-provider group mappings.
import * as v from 'valibot';
import { Text, Uuid } from '../../http/common-schemas.ts';

/** At most this many groups mapped to one app. */
export const MAX_MAPPINGS = 1000;

/** An alias; "" means no alias, like null. */
const Alias = v.pipe(Text(200), v.transform((alias): string | null => (alias === '' ? null : alias)));

export const ReplaceMappingsBody = v.object({
  mappings: v.pipe(
    v.array(
      v.object({
        group_id: v.pipe(Uuid, v.toLowerCase()),
        alias: v.nullish(Alias, null),
        hidden_from_end_user: v.nullish(v.boolean('must be true or false'), false),
      }),
      'must be a list of mappings',
    ),
    v.maxLength(MAX_MAPPINGS, `must list at most ${MAX_MAPPINGS} mappings`),
  ),
});
export type ReplaceMappingInput = v.InferOutput<typeof ReplaceMappingsBody>['mappings'][number];

/**
 * POST …/groups/{group_id}: an upsert; a field left out (or, for hidden_from_end_user, null) keeps its
 * current value, or its default on a new mapping. An alias of null (or "") removes the alias.
 */
export const UpsertMappingBody = v.optional(
  v.object({
    alias: v.optional(v.nullable(Alias)),
    hidden_from_end_user: v.optional(v.nullable(v.boolean('must be true or false'))),
  }),
  {},
);
export type UpsertMappingInput = v.InferOutput<typeof UpsertMappingBody>;
