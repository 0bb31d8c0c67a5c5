// The incident a break-glass names (docs/break-glass.md): when PagerDuty is set up, it must know the
// incident and have it triggered or acknowledged; without it, the reference is kept as given. The
// lookup is the on-call area's (lookUpIncident), a network call: never inside a transaction.
import type { AppContext } from '../../context.ts';
import { invalidField } from '../../http/errors.ts';
import { lookUpIncident, pagerDutyReady } from '../on-call/service.ts';

/** What the check found: the incident's status and title, or null when PagerDuty is not set up (nothing asked). */
export type IncidentFound = { status: 'triggered' | 'acknowledged'; title: string } | null;

/**
 * Resolves when `incidentId` may be named: PagerDuty is not set up (null), or it has the incident
 * triggered or acknowledged (its status and title). Throws validation_failed naming `incident_id` for
 * an incident PagerDuty does not know or has resolved, and unavailable (503) when PagerDuty cannot be
 * asked — the person may break glass without naming the incident then.
 */
export async function checkIncident(ctx: AppContext, incidentId: string): Promise<IncidentFound> {
  if (!pagerDutyReady(ctx)) return null;
  const found = await lookUpIncident(ctx, incidentId, 'incident_id');
  if (!found.exists) throw invalidField('incident_id', `PagerDuty has no incident ${incidentId}`);
  if (found.status === 'resolved') throw invalidField('incident_id', `PagerDuty incident ${incidentId} is resolved: break glass for an incident still triggered or acknowledged`);
  return { status: found.status, title: found.title };
}
