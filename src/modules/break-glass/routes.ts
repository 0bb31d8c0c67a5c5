// The break-glass area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts). Every one is an extension: the reference has no break-glass operation.
import { defineRoutes } from '../../http/route.ts';
import { BreakGlassBody, BreakGlassSettingsBody, ListBreakGlassQuery, ReviewBreakGlassBody } from './schemas.ts';
import { BreakGlass, BreakGlassSettings, PaginatedBreakGlassList } from './responses.ts';

const SETTINGS = (kind: 'resource' | 'group') => ({
  role: 'member' as const,
  summary: `Say who may break glass on a ${kind}`,
  description: `The ${kind}'s break_glass_user_ids, break_glass_group_ids and break_glass_max_minutes (each optional, as on PUT /v1/${kind}s), `
    + `for the users of its admin owner as well as admins (403 for anyone else); recorded as ${kind === 'resource' ? 'RESOURCES' : 'GROUPS'}_UPDATED. `
    + '409 while a configuration template sets them. Answers the three fields as they now stand.',
  extension: true as const,
  body: BreakGlassSettingsBody,
  responses: { 200: BreakGlassSettings },
});

const REFUSED = 'A refusal of any kind records a BREAK_GLASS_REFUSED event and nothing else.';

export const breakGlassRoutes = defineRoutes('break-glass', {
  'POST /v1/break-glass': {
    role: 'member',
    summary: 'Break glass: take access to an item at once',
    description: 'For a person the item names (`break_glass_user_ids`, or a member of `break_glass_group_ids`, on the item or its configuration template): '
      + 'records a request the break-glass rule approves at once (`break_glass: true`) and grants it as any approval does, for `duration_minutes` '
      + '(at most, and by default, the item\'s `break_glass_max_minutes`; the item\'s ordinary maximum duration does not apply). `reason`: 20 characters at least. '
      + '`incident_id`: checked with PagerDuty when it is set up (it must be triggered or acknowledged). The item\'s owners and the admins are told at once; '
      + 'BREAK_GLASS_USED is recorded. One active break-glass per person and item (409); it cannot be extended. 403 for someone not named, for an item '
      + `without break-glass, or for a suspended or offboarded person. ${REFUSED}`,
    extension: true,
    body: BreakGlassBody,
    responses: { 200: BreakGlass },
  },
  'GET /v1/break-glass': {
    role: 'read',
    summary: 'List break-glasses and their reviews',
    description: 'Newest first. An admin sees every one; a member their own and those of items whose admin owner they are a user of. '
      + '`awaiting_my_review=true` keeps the OPEN reviews the caller may decide (not their own). `start_date_filter` keeps those begun since.',
    extension: true,
    query: ListBreakGlassQuery,
    responses: { 200: PaginatedBreakGlassList },
  },
  'GET /v1/break-glass/{id}': {
    role: 'read', items: { id: null },
    summary: 'Get a break-glass',
    description: 'As the list: admins, the person, and the users of the item\'s admin owner; 404 for anyone else.',
    extension: true,
    responses: { 200: BreakGlass },
  },
  'PUT /v1/resources/{resource_id}/break-glass': { ...SETTINGS('resource'), items: { resource_id: 'resource' } },
  'PUT /v1/groups/{group_id}/break-glass': { ...SETTINGS('group'), items: { group_id: 'group' } },
  'POST /v1/break-glass/{id}/review': {
    role: 'member', items: { id: null },
    summary: 'Review a break-glass after the fact',
    description: 'A user of the item\'s admin owner, or an admin, records `decision` JUSTIFIED or NOT_JUSTIFIED with a `comment` (BREAK_GLASS_REVIEWED). '
      + 'NOT_JUSTIFIED ends the access at once if it still lasts, and the admins are told. Nobody reviews their own (403); a review is final (409). '
      + REFUSED,
    extension: true,
    body: ReviewBreakGlassBody,
    responses: { 200: BreakGlass },
  },
});
