// The on-call area's routes: who may call each, what its path parameters name, and its entry in the API document
// (format: src/http/route.ts).
import { defineRoutes } from '../../http/route.ts';
import { uuidList } from '../../openapi/responses.ts';
import { CreateOnCallScheduleBody, SetGroupSchedulesBody } from './schemas.ts';
import { OnCallNow, OnCallSchedule, OnCallScheduleList } from './responses.ts';

export const onCallRoutes = defineRoutes('on-call-schedules', {
  'GET /v1/on-call-schedules': { role: 'read', summary: 'List on-call schedules', responses: { 200: OnCallScheduleList } },
  'POST /v1/on-call-schedules': {
    role: 'admin',
    summary: 'Add an on-call schedule',
    description: 'Gatehouse asks the provider for the schedule and stores the name it answers (a `name` given is replaced). '
      + 'An unknown `remote_id` is refused (`validation_failed` naming it); a provider that is not set up is refused naming its setting '
      + '(`validation_failed` on `third_party_provider`); one that does not answer is `unavailable` (503). A provider and remote id may be recorded once (`conflict`). '
      + 'Groups linked to it follow its rotation (docs/on-call.md).',
    body: CreateOnCallScheduleBody,
    responses: { 200: OnCallSchedule },
    errors: ['unavailable'],
  },
  'GET /v1/on-call-schedules/{on_call_schedule_id}': {
    role: 'read', items: { on_call_schedule_id: null }, summary: 'Get an on-call schedule', responses: { 200: OnCallSchedule },
  },
  'GET /v1/on-call-schedules/{on_call_schedule_id}/on-call': {
    role: 'read', items: { on_call_schedule_id: null },
    extension: true,
    summary: 'Who is on call now',
    description: 'What the on-call sync knows: the Gatehouse users on call now and when each shift ends, the on-call people no user matches by email, '
      + 'when it last synced and its last failure (null when the last sync worked).',
    responses: { 200: OnCallNow },
  },
  'POST /v1/on-call-schedules/{on_call_schedule_id}/sync': {
    role: 'admin', items: { on_call_schedule_id: null },
    extension: true,
    summary: 'Sync an on-call schedule now',
    description: 'Reads the schedule from its provider now (whatever its back-off) and brings the groups that follow it in line; '
      + 'answers what the sync knows, as GET …/on-call does (a failure is in `last_error`, and changes nobody\'s access).',
    responses: { 200: OnCallNow },
  },
  'GET /v1/groups/{group_id}/on-call-schedules': {
    role: 'read', items: { group_id: 'group' }, summary: 'List a group\'s on-call schedules', responses: { 200: OnCallScheduleList },
  },
  'PUT /v1/groups/{group_id}/on-call-schedules': {
    role: 'admin', items: { group_id: 'group' },
    summary: 'Set a group\'s on-call schedules',
    description: 'The ids given, each once, replace the list. Answers the ids now set. From the next sync the group\'s members follow the schedules: '
      + 'whoever is on call holds it until their shift ends (docs/on-call.md). Refused (`conflict`, naming `on_call_schedule_ids`) while the group is linked to '
      + 'a configuration template that sets other schedules (`member_oncall_schedule_ids`); the template\'s own list is accepted.',
    body: SetGroupSchedulesBody,
    responses: { 200: uuidList },
  },
});
