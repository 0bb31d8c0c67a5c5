// PagerDuty REST API v2, as its public document asks (developer.pagerduty.com; pagerduty-rest-openapiv3.json):
// `Authorization: Token token=…`, `Accept: application/vnd.pagerduty+json;version=2`; GET /schedules/{id}
// for the name, GET /oncalls?schedule_ids[]=…&include[]=users&since=…&until=… paged by offset/limit while
// `more`, GET /incidents/{id} for break-glass. Answers are checked with the schemas below before use.
import * as v from 'valibot';
import { checkedAnswer, ProviderFailure, remoteInstant, remoteText, utc, type OnCallAdapter, type OnCallShift } from './provider.ts';
import { getJson } from './http.ts';

/** Entries asked for per page (PagerDuty's own largest page is 100). */
const PAGE_LIMIT = 100;

const Reference = v.object({ id: remoteText, type: v.optional(v.string()), summary: v.optional(v.nullable(v.string())) });

/** GET /schedules/{id}: `{schedule: Schedule}`; only the name is used. */
export const ScheduleAnswer = v.object({ schedule: v.object({ id: remoteText, name: v.optional(remoteText), summary: v.optional(v.nullable(remoteText)) }) });

/** A user as `include[]=users` expands it (a bare reference otherwise: then without email). */
const OnCallUser = v.object({
  id: remoteText,
  type: v.optional(v.string()),
  name: v.optional(remoteText),
  summary: v.optional(v.nullable(remoteText)),
  email: v.optional(v.pipe(v.string(), v.maxLength(320))),
});

/** GET /oncalls: Pagination and `oncalls: Oncall[]` (start/end null: permanent on-call). */
export const OnCallsAnswer = v.object({
  oncalls: v.pipe(v.array(v.object({
    user: v.optional(OnCallUser),
    schedule: v.optional(v.nullable(Reference)),
    escalation_level: v.optional(v.number()),
    start: v.optional(v.nullable(remoteInstant)),
    end: v.optional(v.nullable(remoteInstant)),
  })), v.maxLength(10_000)),
  more: v.optional(v.nullable(v.boolean())),
  offset: v.optional(v.nullable(v.number())),
  limit: v.optional(v.nullable(v.number())),
});

/** GET /incidents/{id}: `{incident: Incident}`; the status decides. */
export const IncidentAnswer = v.object({
  incident: v.object({
    id: remoteText,
    status: v.picklist(['triggered', 'acknowledged', 'resolved']),
    title: v.optional(v.nullable(remoteText)),
    summary: v.optional(v.nullable(remoteText)),
  }),
});

const path = (segment: string) => encodeURIComponent(segment);

export const pagerDutyAdapter: OnCallAdapter = {
  label: 'PagerDuty',
  settings: { credential: 'pagerdutyToken', url: 'pagerdutyApiUrl' },
  headers: (token) => ({ authorization: `Token token=${token}`, accept: 'application/vnd.pagerduty+json;version=2' }),
  groupType: { type: 'PAGERDUTY_ON_CALL_SCHEDULE', remoteInfoKind: 'pagerduty_on_call_schedule', field: 'schedule_id' },

  async schedule(call, remoteId) {
    const answer = await getJson(call.endpoint, `/schedules/${path(remoteId)}`, {}, call.stop);
    const body = checkedAnswer('PagerDuty', `schedule ${remoteId}`, answer, ScheduleAnswer, true);
    return body && { name: body.schedule.name ?? body.schedule.summary ?? remoteId };
  },

  async onCall(call, remoteId, since, until) {
    const shifts: OnCallShift[] = [];
    // The next page starts after the entries received, not after the limit asked: PagerDuty may answer fewer per page (it echoes the limit it used).
    let offset = 0;
    for (let page = 0; ; page++) {
      if (page >= call.maxCalls) throw new ProviderFailure(`PagerDuty kept paging the on-calls of schedule ${remoteId} past ${call.maxCalls} pages`);
      const answer = await getJson(call.endpoint, '/oncalls', {
        'schedule_ids[]': remoteId, 'include[]': 'users', since: since.toISOString(), until: until.toISOString(),
        time_zone: 'UTC', limit: String(PAGE_LIMIT), offset: String(offset),
      }, call.stop);
      const body = checkedAnswer('PagerDuty', `the on-calls of schedule ${remoteId}`, answer, OnCallsAnswer)!;
      for (const entry of body.oncalls) {
        // Only this schedule's on-calls: an entry without one comes from an escalation policy naming the person directly.
        if (!entry.user || entry.schedule?.id !== remoteId) continue;
        shifts.push({
          remote_user_id: entry.user.id,
          email: entry.user.email ?? '',
          name: entry.user.name ?? entry.user.summary ?? entry.user.id,
          starts_at: utc(entry.start), ends_at: utc(entry.end),
        });
      }
      if (body.more !== true || body.oncalls.length === 0) return shifts;
      offset += body.oncalls.length;
    }
  },

  async incident(call, incidentId) {
    const answer = await getJson(call.endpoint, `/incidents/${path(incidentId)}`, {}, call.stop);
    const body = checkedAnswer('PagerDuty', `incident ${incidentId}`, answer, IncidentAnswer, true);
    return body && { id: body.incident.id, status: body.incident.status, title: body.incident.title ?? body.incident.summary ?? '' };
  },
};
