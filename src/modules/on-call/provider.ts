// What every on-call provider adapter declares and does: one file per provider (pagerduty.ts, opsgenie.ts)
// saying how it is called, which settings it reads and the answers it accepts; one line per provider in
// providers.ts. Adapters do network work only, never database work.
import * as v from 'valibot';
import type { Config } from '../../config.ts';
import type { ProviderAnswer, ProviderEndpoint } from './http.ts';

/** The reference's OnCallScheduleProviderEnum, in its order. */
export const ON_CALL_PROVIDER_NAMES = ['OPSGENIE', 'PAGER_DUTY'] as const;
export type OnCallProvider = (typeof ON_CALL_PROVIDER_NAMES)[number];

/** One stretch of time a person is on call for a schedule, as the provider states it. */
export interface OnCallShift {
  /** The person's id at the provider. */
  remote_user_id: string;
  /** Their email at the provider ('' when it states none): matched to Gatehouse users, case-insensitively. */
  email: string;
  name: string;
  /** ISO instants; null start: on call since before anyone can tell; null end: the provider states no end. */
  starts_at: string | null;
  ends_at: string | null;
}

/** A PagerDuty incident as break-glass needs it. */
export interface IncidentState {
  id: string;
  status: 'triggered' | 'acknowledged' | 'resolved';
  title: string;
}

/**
 * A provider failed (unreachable, refused our credential, answered what its document does not allow): the
 * words say which, with no secret. `retryAfterMs`: the provider asked us to wait (429 with Retry-After).
 */
export class ProviderFailure extends Error {
  constructor(message: string, readonly retryAfterMs?: number) {
    super(message);
  }
}

/**
 * The provider refused our credential (401 or 403): the setting is wrong, not the provider down. Callers
 * that can name the setting to a person who can fix it (an admin adding a schedule) answer 400 with it.
 */
export class CredentialRefused extends ProviderFailure {}

/** What a call carries: the endpoint (built from the adapter's settings) and the service's stop signal. */
export interface ProviderCall {
  endpoint: ProviderEndpoint;
  stop?: AbortSignal;
  /** The calls one sync of one schedule may make (pages included); a provider paging past it fails the sync. */
  maxCalls: number;
}

export interface OnCallAdapter {
  /** The provider's name for people ("PagerDuty"). */
  readonly label: string;
  /** The settings it is called with: its credential (unset: the provider is not set up) and its API's base URL. */
  readonly settings: { readonly credential: keyof Config; readonly url: keyof Config };
  /** The headers every call carries, given the credential (its API document's authentication and media type). */
  headers(credential: string): Record<string, string>;
  /** A group type whose remote_info names one of this provider's schedules, if the reference has one. */
  readonly groupType?: { readonly type: string; readonly remoteInfoKind: string; readonly field: string };
  /** The schedule's name; null when the provider says there is no such schedule. Throws ProviderFailure. */
  schedule(call: ProviderCall, remoteId: string): Promise<{ name: string } | null>;
  /**
   * Who is on call for the schedule at some time in [since, until]: every shift overlapping it, as the
   * provider states them (the sync keeps those covering now, joined to the next when it is the same person's).
   * Throws ProviderFailure.
   */
  onCall(call: ProviderCall, remoteId: string, since: Date, until: Date): Promise<OnCallShift[]>;
  /** An incident (PagerDuty); null when there is none with that id. Throws ProviderFailure. */
  incident?(call: ProviderCall, incidentId: string): Promise<IncidentState | null>;
}

/**
 * Checks a provider's answer like API input: a 2xx whose JSON `schema` accepts → the parsed value; a 404
 * → null when `missingIsNull`; anything else a ProviderFailure naming the status (and 401/403 as a refused
 * credential) or the first field the schema refused.
 */
export function checkedAnswer<S extends v.GenericSchema>(label: string, what: string, answer: ProviderAnswer, schema: S, missingIsNull = false): v.InferOutput<S> | null {
  if (!answer.answered) throw new ProviderFailure(`${label} (${what}): ${answer.error}`);
  if (answer.status === 404 && missingIsNull) return null;
  if (answer.status === 401 || answer.status === 403) throw new CredentialRefused(`${label} refused the credential (${answer.status}) for ${what}: check its setting`);
  if (answer.status === 429) throw new ProviderFailure(`${label} is throttling us (429) for ${what}`, answer.retryAfterMs);
  if (answer.status < 200 || answer.status >= 300) throw new ProviderFailure(`${label} answered ${answer.status} for ${what}`);
  const parsed = v.safeParse(schema, answer.json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = issue.path?.map((p: { key: unknown }) => String(p.key)).join('.') ?? '';
    throw new ProviderFailure(`${label} answered ${what} in a shape its API document does not allow${path ? ` (at ${path})` : ''}: ${issue.message}`);
  }
  return parsed.output;
}

/** An ISO instant from a provider (any offset) as Gatehouse stores times (UTC, milliseconds, Z); null stays null. */
export function utc(instant: string | null | undefined): string | null {
  return instant === null || instant === undefined ? null : new Date(instant).toISOString();
}

/** A provider's date-time: text Date can read (checked, so utc() never meets an invalid one). */
export const remoteInstant = v.pipe(v.string(), v.maxLength(64), v.check((s) => !Number.isNaN(Date.parse(s)), 'must be a date-time'));
/** A provider's id or name: text, bounded. */
export const remoteText = v.pipe(v.string(), v.maxLength(1024));
