// What a connector's answers and failures mean, as the reference's PropagationStatusEnum, in one place —
// the table of docs/connectors.md ("Propagation status"): no answer within timeout_ms is ERR_TIMEOUT,
// unreachable or 5xx ERR_REMOTE_INTERNAL_ERROR, 429 ERR_REMOTE_THROTTLE, 404 ERR_REMOTE_USER_NOT_FOUND or
// ERR_REMOTE_RESOURCE_NOT_FOUND by its words, any other 4xx or an answer outside the protocol
// ERR_REMOTE_UNRECOVERABLE_ERROR. A push, a read before a push and a sync all say it the same way.
import type { CallResult } from './opal-http.ts';

export type Outcome = { ok: true } | { ok: false; code: string; error: string; retryAfterMs?: number; permanent?: boolean };

/** A failure of a connector call that carries its status: what reads throw (a sync reports its message, a push its code). */
export class RemoteFailure extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/** Any thrown value as a status and words: a RemoteFailure's own, anything else ERR_REMOTE_INTERNAL_ERROR. `what` says what was being done. */
export function failureOf(err: unknown, what: string): { code: string; error: string } {
  const message = err instanceof Error ? err.message : String(err);
  return { code: err instanceof RemoteFailure ? err.code : 'ERR_REMOTE_INTERNAL_ERROR', error: `${what}: ${message}`.slice(0, 500) };
}

/** The connector's own words for a failed answer: `{code, message}` per the spec, else the status. */
export function describeAnswer(result: Extract<CallResult, { answered: true }>): string {
  const json = result.json as { message?: unknown } | undefined;
  const message = json && typeof json.message === 'string' ? `: ${json.message.slice(0, 200)}` : '';
  return `connector answered ${result.status}${message}`;
}

/**
 * What a 404's message names: the user, the resource or group, or neither — the spec's EntityNotFoundError
 * carries any message, and a connector may say only "Entity not found" (opal-adapter.ts then asks).
 */
export function notFoundSubject(result: CallResult): 'user' | 'item' | 'unknown' {
  const message = String(((result.answered ? result.json : undefined) as { message?: unknown } | undefined)?.message ?? '').toLowerCase();
  if (message.includes('user')) return 'user';
  return /resource|group/.test(message) ? 'item' : 'unknown';
}

/** A call that got no answer, or an answer that is not 2xx, as the table says. */
function failed(result: CallResult): Exclude<Outcome, { ok: true }> {
  if (!result.answered) return { ok: false, code: result.timeout ? 'ERR_TIMEOUT' : 'ERR_REMOTE_INTERNAL_ERROR', error: result.error };
  const { status } = result;
  const error = describeAnswer(result);
  if (status === 404) return { ok: false, code: notFoundSubject(result) === 'user' ? 'ERR_REMOTE_USER_NOT_FOUND' : 'ERR_REMOTE_RESOURCE_NOT_FOUND', error };
  if (status === 429) return { ok: false, code: 'ERR_REMOTE_THROTTLE', error, ...(result.retryAfterMs && { retryAfterMs: result.retryAfterMs }) };
  if (status >= 500) return { ok: false, code: 'ERR_REMOTE_INTERNAL_ERROR', error };
  return { ok: false, code: 'ERR_REMOTE_UNRECOVERABLE_ERROR', error };
}

/**
 * What a write's result means. A 404 names the user or the resource as the connector's message says (its
 * words "user" / "group"/"resource"); "already exists / already absent" answers (409, and 404 on a
 * removal) are success: the state wanted holds.
 */
export function writeOutcome(result: CallResult, removing: boolean): Outcome {
  if (result.answered && ((result.status >= 200 && result.status < 300) || result.status === 409 || (result.status === 404 && removing))) return { ok: true };
  return failed(result);
}

/** What a read's result means: only 2xx is an answer. */
export function readOutcome(result: CallResult): Outcome {
  if (result.answered && result.status >= 200 && result.status < 300) return { ok: true };
  return failed(result);
}
