// On-call schedules, their links to groups, what each schedule's sync last learned, and the memberships the
// rotation made: the only SQL for any of them (tables of 0005 and 0024).
import type { Db } from '../../db/open.ts';
import { newId } from '../../lib/ids.ts';
import type { OnCallProvider, OnCallShift } from './provider.ts';

export interface ScheduleRow {
  seq: number;
  id: string;
  third_party_provider: OnCallProvider;
  remote_id: string;
  name: string | null;
  created_at: string;
}

export interface SyncStateRow {
  schedule_id: string;
  on_call: string;
  unknown_emails: string;
  last_synced_at: string | null;
  last_attempt_at: string | null;
  last_error: string | null;
  failures: number;
  next_attempt_at: string | null;
  failure_noticed: number;
}

/** What a schedule's sync knows, parsed. */
export interface SyncState {
  onCall: OnCallShift[];
  unknownEmails: string[];
  lastSyncedAt: string | null;
  lastAttemptAt: string | null;
  lastError: string | null;
  failures: number;
  nextAttemptAt: string | null;
  failureNoticed: boolean;
}

export interface MembershipRow {
  group_id: string;
  user_id: string;
  schedule_id: string;
  shift_start: string | null;
  shift_end: string;
}

const toState = (row: SyncStateRow): SyncState => ({
  onCall: JSON.parse(row.on_call) as OnCallShift[],
  unknownEmails: JSON.parse(row.unknown_emails) as string[],
  lastSyncedAt: row.last_synced_at,
  lastAttemptAt: row.last_attempt_at,
  lastError: row.last_error,
  failures: row.failures,
  nextAttemptAt: row.next_attempt_at,
  failureNoticed: row.failure_noticed === 1,
});

export function createOnCallStore(db: Db) {
  const insert = db.prepare<{ id: string; provider: string; remote: string; name: string | null; at: string }>(
    'INSERT INTO on_call_schedules (id, third_party_provider, remote_id, name, created_at) VALUES (@id, @provider, @remote, @name, @at)',
  );
  const byId = db.prepare<[string], ScheduleRow>('SELECT * FROM on_call_schedules WHERE id = ?');
  const byRemote = db.prepare<{ provider: string; remote: string }, ScheduleRow>(
    'SELECT * FROM on_call_schedules WHERE third_party_provider = @provider AND remote_id = @remote',
  );
  const all = db.prepare<[], ScheduleRow>('SELECT * FROM on_call_schedules ORDER BY seq');
  const setName = db.prepare<{ id: string; name: string }>('UPDATE on_call_schedules SET name = @name WHERE id = @id');
  const linkedOf = db.prepare<[string], ScheduleRow>(
    'SELECT s.* FROM group_on_call_schedules l JOIN on_call_schedules s ON s.id = l.on_call_schedule_id WHERE l.group_id = ? ORDER BY l.position',
  );
  const clearLinks = db.prepare<[string]>('DELETE FROM group_on_call_schedules WHERE group_id = ?');
  const insertLink = db.prepare<{ group: string; schedule: string; position: number }>(
    'INSERT INTO group_on_call_schedules (group_id, on_call_schedule_id, position) VALUES (@group, @schedule, @position)',
  );
  // A group follows the schedules linked to it, and (an on-call group type) the recorded schedule its
  // remote_info names. The group types and remote_info kinds come from the adapters, never from input.
  const followed = db.prepare<{ type: string; kind: string; field: string; provider: string }, { group_id: string; schedule_id: string }>(
    `SELECT g.id AS group_id, s.id AS schedule_id FROM groups g
       JOIN on_call_schedules s ON s.third_party_provider = @provider
        AND s.remote_id = json_extract(g.remote_info, '$.' || @kind || '.' || @field)
      WHERE g.group_type = @type AND g.remote_info IS NOT NULL`,
  );
  const allLinks = db.prepare<[], { group_id: string; schedule_id: string }>(
    'SELECT group_id, on_call_schedule_id AS schedule_id FROM group_on_call_schedules ORDER BY group_id, position',
  );
  const stateOf = db.prepare<[string], SyncStateRow>('SELECT * FROM on_call_sync_state WHERE schedule_id = ?');
  const ensureState = db.prepare<[string]>('INSERT INTO on_call_sync_state (schedule_id) VALUES (?) ON CONFLICT DO NOTHING');
  const synced = db.prepare<{ id: string; onCall: string; unknown: string; at: string }>(
    `UPDATE on_call_sync_state SET on_call = @onCall, unknown_emails = @unknown, last_synced_at = @at, last_attempt_at = @at,
       last_error = NULL, failures = 0, next_attempt_at = NULL, failure_noticed = 0 WHERE schedule_id = @id`,
  );
  const failed = db.prepare<{ id: string; error: string; at: string; next: string }>(
    `UPDATE on_call_sync_state SET last_attempt_at = @at, last_error = @error, failures = failures + 1, next_attempt_at = @next
      WHERE schedule_id = @id`,
  );
  const noticed = db.prepare<[string]>('UPDATE on_call_sync_state SET failure_noticed = 1 WHERE schedule_id = ?');
  const membershipsOf = db.prepare<[string], MembershipRow>('SELECT * FROM on_call_memberships WHERE group_id = ? ORDER BY user_id');
  const membership = db.prepare<{ group: string; user: string }, MembershipRow>('SELECT * FROM on_call_memberships WHERE group_id = @group AND user_id = @user');
  const putMembership = db.prepare<{ group: string; user: string; schedule: string; start: string | null; end: string }>(
    `INSERT INTO on_call_memberships (group_id, user_id, schedule_id, shift_start, shift_end) VALUES (@group, @user, @schedule, @start, @end)
     ON CONFLICT (group_id, user_id) DO UPDATE SET schedule_id = excluded.schedule_id, shift_start = excluded.shift_start, shift_end = excluded.shift_end`,
  );
  const membershipGroups = db.prepare<[], { group_id: string }>('SELECT DISTINCT group_id FROM on_call_memberships');
  const dropMembership = db.prepare<{ group: string; user: string }>('DELETE FROM on_call_memberships WHERE group_id = @group AND user_id = @user');

  return {
    /** Inserts a schedule; the same provider and remote id twice raises SQLite's unique error. */
    create(input: { provider: OnCallProvider; remoteId: string; name: string | null }, at: Date): ScheduleRow {
      const id = newId();
      insert.run({ id, provider: input.provider, remote: input.remoteId, name: input.name, at: at.toISOString() });
      return byId.get(id)!;
    },
    get: (id: string): ScheduleRow | undefined => byId.get(id),
    exists: (id: string): boolean => byId.get(id) !== undefined,
    idByRemote: (provider: OnCallProvider, remoteId: string): string | undefined => byRemote.get({ provider, remote: remoteId })?.id,
    /** Every schedule, oldest first (the reference's list is not paged). */
    list: (): ScheduleRow[] => all.all(),
    rename(id: string, name: string): void {
      setName.run({ id, name });
    },

    /** The schedules linked to a group, in the order set. */
    linked: (groupId: string): ScheduleRow[] => linkedOf.all(groupId),
    setLinked(groupId: string, scheduleIds: readonly string[]): void {
      clearLinks.run(groupId);
      scheduleIds.forEach((schedule, position) => insertLink.run({ group: groupId, schedule, position }));
    },
    /** Every (group, schedule) pair a group follows: links, and on-call group types naming a recorded schedule. */
    followedPairs(groupTypes: readonly { type: string; kind: string; field: string; provider: string }[]): { group_id: string; schedule_id: string }[] {
      const pairs = allLinks.all();
      for (const type of groupTypes) pairs.push(...followed.all(type));
      return pairs;
    },

    /** What the schedule's sync knows; undefined before its first attempt. */
    state(scheduleId: string): SyncState | undefined {
      const row = stateOf.get(scheduleId);
      return row && toState(row);
    },
    recordSynced(scheduleId: string, onCall: OnCallShift[], unknownEmails: string[], at: Date): void {
      ensureState.run(scheduleId);
      synced.run({ id: scheduleId, onCall: JSON.stringify(onCall), unknown: JSON.stringify(unknownEmails), at: at.toISOString() });
    },
    /** A failed attempt: what was learned before stays, the error and the next attempt are recorded. */
    recordFailed(scheduleId: string, error: string, at: Date, next: Date): SyncState {
      ensureState.run(scheduleId);
      failed.run({ id: scheduleId, error, at: at.toISOString(), next: next.toISOString() });
      return toState(stateOf.get(scheduleId)!);
    },
    markFailureNoticed(scheduleId: string): void {
      noticed.run(scheduleId);
    },

    /** The memberships of the group the rotation made. */
    memberships: (groupId: string): MembershipRow[] => membershipsOf.all(groupId),
    membership: (groupId: string, userId: string): MembershipRow | undefined => membership.get({ group: groupId, user: userId }),
    putMembership(row: MembershipRow): void {
      putMembership.run({ group: row.group_id, user: row.user_id, schedule: row.schedule_id, start: row.shift_start, end: row.shift_end });
    },
    /** The groups holding memberships the rotation made. */
    groupsWithMemberships: (): string[] => membershipGroups.all().map((row) => row.group_id),
    dropMembership(groupId: string, userId: string): void {
      dropMembership.run({ group: groupId, user: userId });
    },
  };
}

