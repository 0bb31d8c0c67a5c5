// The incident a break-glass names (docs/break-glass.md): when an on-call provider is set up, it must
// know the incident and have it triggered or acknowledged; without one, the reference is kept as given.
import type { AppContext } from '../../context.ts';

/**
 * Resolves when `incidentId` may be named: no on-call provider is set up, or the provider has the
 * incident open (triggered or acknowledged). Throws validation_failed naming `incident_id` for an
 * unknown or resolved incident. Network work: call it outside any transaction.
 */
export async function checkIncident(_ctx: AppContext, _incidentId: string): Promise<void> {
  // The on-call area's incident lookup plugs in here once it lands (issue 39; the oncall engineer's work).
}
