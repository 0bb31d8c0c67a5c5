// The on-call area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { OnCallSchedule } from './responses.ts';
import type { ScheduleRow } from './store.ts';

export const toApiSchedule = (row: ScheduleRow): OnCallSchedule => ({
  on_call_schedule_id: row.id,
  third_party_provider: row.third_party_provider,
  remote_id: row.remote_id,
  ...(row.name !== null && { name: row.name }),
});
