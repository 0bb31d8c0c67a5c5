// The on-call area's response shapes (Valibot): the types its mappers return, and its answers in the API document.
import * as v from 'valibot';
import { component, uuid, dateTime, described } from '../../openapi/responses.ts';
import { ON_CALL_PROVIDER_NAMES } from './provider.ts';

export const OnCallScheduleProviderEnum = component('OnCallScheduleProviderEnum', v.picklist(ON_CALL_PROVIDER_NAMES));

export const OnCallSchedule = component('OnCallSchedule', described(v.object({
  on_call_schedule_id: uuid,
  third_party_provider: v.optional(OnCallScheduleProviderEnum),
  remote_id: v.optional(v.string()),
  name: v.optional(v.string()),
}), 'An on-call schedule on record. Always has `on_call_schedule_id`; `name` is the provider\'s, read when it was added.'));
export type OnCallSchedule = v.InferOutput<typeof OnCallSchedule>;

export const OnCallScheduleList = component('OnCallScheduleList', v.object({
  on_call_schedules: v.array(OnCallSchedule),
}));

export const OnCallNow = component('OnCallNow', described(v.object({
  on_call_schedule_id: uuid,
  on_call: described(v.array(v.object({
    user_id: uuid,
    email: v.string(),
    ends_at: described(dateTime, 'When their shift ends as the provider states it (a shift with no stated end: one day ahead, renewed while it lasts).'),
  })), 'The Gatehouse users on call now, matched by email (case-insensitive).'),
  unknown_emails: described(v.array(v.string()), 'People on call now whom no Gatehouse user matches by email: add them to give them the rotation\'s access.'),
  last_synced_at: v.nullable(dateTime),
  last_error: described(v.nullable(v.string()), 'The last failure in words; null when the last sync worked.'),
  failures: described(v.pipe(v.number(), v.integer()), 'Failed syncs in a row (retried with back-off; admins are told after 3).'),
  followed_by_group_ids: described(v.array(uuid), 'The groups that follow this schedule (linked, through their configuration template, or by their on-call group type). Empty: no group follows it, and it is not synced periodically — only when asked (POST …/sync).'),
  next_sync_at: described(v.nullable(dateTime), 'When the periodic sync next reads this schedule (the end of its back-off while failing); null when no group follows it, so it is read only when asked.'),
}), 'What the on-call sync knows of a schedule (extension).'));
export type OnCallNow = v.InferOutput<typeof OnCallNow>;
