// Review delegations: the only SQL for them.
import type { Db } from '../../db/open.ts';
import { newId } from '../../lib/ids.ts';

export interface DelegationRow {
  seq: number;
  id: string;
  delegator_user_id: string;
  delegate_user_id: string;
  start_time: string;
  end_time: string;
  reason: string;
  created_at: string;
  updated_at: string;
}

export interface DelegationFilter {
  delegatorId?: string | undefined;
  delegateId?: string | undefined;
}

export function createDelegationStore(db: Db) {
  const byId = db.prepare<[string], DelegationRow>('SELECT * FROM delegations WHERE id = ?');
  const FILTER = `(@delegatorId IS NULL OR delegator_user_id = @delegatorId) AND (@delegateId IS NULL OR delegate_user_id = @delegateId)`;
  const page = db.prepare<{ after: number; limit: number; delegatorId: string | null; delegateId: string | null }, DelegationRow>(
    `SELECT * FROM delegations WHERE seq > @after AND ${FILTER} ORDER BY seq LIMIT @limit`,
  );
  const count = db.prepare<{ delegatorId: string | null; delegateId: string | null }, { n: number }>(
    `SELECT count(*) AS n FROM delegations WHERE ${FILTER}`,
  );
  const inForce = db.prepare<{ delegatorId: string; now: string }, DelegationRow>(
    `SELECT * FROM delegations WHERE delegator_user_id = @delegatorId AND start_time <= @now AND end_time > @now
     ORDER BY seq DESC LIMIT 1`,
  );
  const overlapping = db.prepare<{ delegatorId: string; start: string; end: string }, DelegationRow>(
    `SELECT * FROM delegations WHERE delegator_user_id = @delegatorId AND start_time < @end AND end_time > @start
     ORDER BY seq LIMIT 1`,
  );
  const insert = db.prepare<Omit<DelegationRow, 'seq'>>(
    `INSERT INTO delegations (id, delegator_user_id, delegate_user_id, start_time, end_time, reason, created_at, updated_at)
     VALUES (@id, @delegator_user_id, @delegate_user_id, @start_time, @end_time, @reason, @created_at, @updated_at)`,
  );
  const remove = db.prepare<[string]>('DELETE FROM delegations WHERE id = ?');

  return {
    get: (id: string) => byId.get(id),
    list(filter: DelegationFilter, after: number | null, limit: number): DelegationRow[] {
      return page.all({ after: after ?? 0, limit, delegatorId: filter.delegatorId ?? null, delegateId: filter.delegateId ?? null });
    },
    count: (filter: DelegationFilter) => count.get({ delegatorId: filter.delegatorId ?? null, delegateId: filter.delegateId ?? null })!.n,
    /** The delegation of `delegatorId` in force at `now` (start inclusive, end exclusive), if any. */
    inForce: (delegatorId: string, now: Date) => inForce.get({ delegatorId, now: now.toISOString() }),
    /** A delegation of `delegatorId` whose window overlaps [start, end), if any. */
    overlapping: (delegatorId: string, start: string, end: string) => overlapping.get({ delegatorId, start, end }),
    create(fields: Pick<DelegationRow, 'delegator_user_id' | 'delegate_user_id' | 'start_time' | 'end_time' | 'reason'>, at: Date): DelegationRow {
      const id = newId();
      const now = at.toISOString();
      insert.run({ id, ...fields, created_at: now, updated_at: now });
      return byId.get(id)!;
    },
    delete: (id: string) => void remove.run(id),
  };
}

