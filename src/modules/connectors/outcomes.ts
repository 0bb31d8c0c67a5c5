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

/** The words that name a connector's user, and its resource or group (an access level is the item's). */
const USER_WORD = String.raw`users?(?:_id)?`;
const ITEM_WORD = String.raw`(?:resources?|groups?|access[ _-]?levels?)(?:_id)?`;
const SUBJECT = `(${USER_WORD}|${ITEM_WORD})`;
/**
 * "<subject> [<id>] [was|is] not found / does not exist / …" and "no such / unknown / cannot find <subject>":
 * which of the things a message names it says is missing.
 */
const MISSING = [
  new RegExp(String.raw`\b${SUBJECT}(?:\s+(?:with\s+id\s+)?['"\u201c]?[\w@.:+/-]+['"\u201d]?)?\s+(?:was\s+|is\s+)?(?:not\s+found|does\s+not\s+exist|doesn't\s+exist|not\s+exist|is\s+missing|missing|unknown)\b`, 'g'),
  new RegExp(String.raw`\b(?:no\s+such|unknown|missing|cannot\s+find|can't\s+find|could\s+not\s+find|couldn't\s+find|failed\s+to\s+find)\s+(?:the\s+|a\s+)?${SUBJECT}\b`, 'g'),
];
/** Made once: a 404's message is read against them on every failed call. */
const USER_ONLY = new RegExp(String.raw`^${USER_WORD}$`);
const NAMES_USER = new RegExp(String.raw`\b${USER_WORD}\b`);
const NAMES_ITEM = new RegExp(String.raw`\b${ITEM_WORD}\b`);
const isUserWord = (word: string) => USER_ONLY.test(word);

/**
 * What a 404 says is missing: the user, the resource or group, or it cannot tell ('unknown'). The spec's
 * EntityNotFoundError is `{code, message}` with no field for the entity, so only the words can say: a
 * message naming one kind names it ("user not found", "no such resource r-1"); one naming both counts
 * only when it says which is missing ("resource r-1 not found for user u-1" is the resource); otherwise,
 * or for "Entity not found", 'unknown' — opal-adapter.ts then reads the item to decide, and anything
 * else treats it as the resource (never a reason to make the user's account again).
 */
export function notFoundSubject(result: CallResult): 'user' | 'item' | 'unknown' {
  const message = String(((result.answered ? result.json : undefined) as { message?: unknown } | undefined)?.message ?? '').toLowerCase().slice(0, 500);
  const namesUser = NAMES_USER.test(message);
  const namesItem = NAMES_ITEM.test(message);
  if (namesUser !== namesItem) return namesUser ? 'user' : 'item';
  if (!namesUser) return 'unknown';
  const missing = new Set(MISSING.flatMap((pattern) => [...message.matchAll(pattern)].map((match) => (isUserWord(match[1]!) ? 'user' : 'item'))));
  return missing.size === 1 ? [...missing][0]! as 'user' | 'item' : 'unknown';
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
 * What a write's result means. A 404 names the user or the resource as the connector's message says
 * (notFoundSubject); "already exists / already absent" answers (409, and 404 on a
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
