// Opsgenie's REST API, as its public document asks (docs.opsgenie.com; opsgenie-swagger.json): `Authorization:
// GenieKey …`; GET /v2/schedules/{id}?identifierType=id for the name, GET /v2/schedules/{id}/on-calls for who
// is on call now, and GET /v2/schedules/{id}/timeline (the final timeline) for when each person's shift ends.
// Opsgenie names a user by their username, which is their email. Answers are checked with the schemas below.
import * as v from 'valibot';
import { checkedAnswer, remoteInstant, remoteText, utc, type OnCallAdapter, type OnCallShift } from './provider.ts';
import { getJson } from './http.ts';

/** GET /v2/schedules/{id}: BaseResponse with `data: Schedule`. */
export const ScheduleAnswer = v.object({ data: v.object({ id: v.optional(remoteText), name: remoteText }) });

/** A participant; with flat=false a team or escalation nests its own (read one level deep). */
const Participant = v.object({
  id: v.optional(remoteText),
  name: v.optional(remoteText),
  type: v.optional(v.string()),
  onCallParticipants: v.optional(v.pipe(v.array(v.object({ id: v.optional(remoteText), name: v.optional(remoteText), type: v.optional(v.string()) })), v.maxLength(1_000))),
});

/** GET /v2/schedules/{id}/on-calls: `data: OnCall`. */
export const OnCallsAnswer = v.object({
  data: v.object({ onCallParticipants: v.optional(v.pipe(v.array(Participant), v.maxLength(1_000))) }),
});

const Period = v.object({
  startDate: remoteInstant,
  endDate: remoteInstant,
  type: v.optional(v.string()),
  recipient: v.optional(v.object({ id: v.optional(remoteText), name: v.optional(remoteText), type: v.optional(v.string()) })),
});

/** GET /v2/schedules/{id}/timeline: `data: ScheduleTimeline`, the final timeline's rotations and their periods. */
export const TimelineAnswer = v.object({
  data: v.object({
    startDate: v.optional(remoteInstant),
    endDate: remoteInstant,
    finalTimeline: v.optional(v.object({
      rotations: v.optional(v.pipe(v.array(v.object({
        id: v.optional(remoteText),
        name: v.optional(remoteText),
        periods: v.optional(v.pipe(v.array(Period), v.maxLength(10_000))),
      })), v.maxLength(1_000))),
    })),
  }),
});

const path = (segment: string) => encodeURIComponent(segment);

/** How many weeks of timeline are read: a shift ending later is renewed as the window moves on. */
const TIMELINE_WEEKS = 1;

export const opsgenieAdapter: OnCallAdapter = {
  label: 'Opsgenie',
  settings: { credential: 'opsgenieApiKey', url: 'opsgenieApiUrl' },
  headers: (key) => ({ authorization: `GenieKey ${key}`, accept: 'application/json' }),

  async schedule(call, remoteId) {
    const answer = await getJson(call.endpoint, `/v2/schedules/${path(remoteId)}`, { identifierType: 'id' }, call.stop);
    const body = checkedAnswer('Opsgenie', `schedule ${remoteId}`, answer, ScheduleAnswer, true);
    return body && { name: body.data.name };
  },

  async onCall(call, remoteId, since) {
    const who = checkedAnswer('Opsgenie', `the on-calls of schedule ${remoteId}`, await getJson(call.endpoint, `/v2/schedules/${path(remoteId)}/on-calls`, {
      scheduleIdentifierType: 'id', flat: 'false', date: since.toISOString(),
    }, call.stop), OnCallsAnswer)!;
    const users = new Map<string, { id: string; name: string }>();
    for (const participant of who.data.onCallParticipants ?? []) {
      for (const one of [participant, ...(participant.onCallParticipants ?? [])]) {
        if (one.type === 'user' && one.name) users.set(one.name.toLowerCase(), { id: one.id ?? one.name, name: one.name });
      }
    }
    if (users.size === 0) return [];
    const timeline = checkedAnswer('Opsgenie', `the timeline of schedule ${remoteId}`, await getJson(call.endpoint, `/v2/schedules/${path(remoteId)}/timeline`, {
      identifierType: 'id', date: since.toISOString(), interval: String(TIMELINE_WEEKS), intervalUnit: 'weeks',
    }, call.stop), TimelineAnswer)!;
    const shifts: OnCallShift[] = [];
    const covered = new Set<string>();
    for (const rotation of timeline.data.finalTimeline?.rotations ?? []) {
      for (const period of rotation.periods ?? []) {
        const email = period.recipient?.type === 'user' ? period.recipient.name?.toLowerCase() : undefined;
        const user = email === undefined ? undefined : users.get(email);
        if (!user || !email) continue;
        covered.add(email);
        shifts.push({ remote_user_id: user.id, email: user.name, name: user.name, starts_at: utc(period.startDate), ends_at: utc(period.endDate) });
      }
    }
    // On call now with no period of theirs in the timeline (a forwarding, say): until the timeline's end, no later.
    for (const [email, user] of users) {
      if (!covered.has(email)) shifts.push({ remote_user_id: user.id, email: user.name, name: user.name, starts_at: since.toISOString(), ends_at: utc(timeline.data.endDate) });
    }
    return shifts;
  },
};
