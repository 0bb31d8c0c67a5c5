// What a connector sends, checked with the API's own rules before Gatehouse keeps any of it: a remote
// id is capped text without control characters, a name is the API's Name, an email the API's Email.
// An item that fails is skipped, and the sync records a sync error naming it (never quoting it raw).
import * as v from 'valibot';
import { Name, Text } from '../../http/common-schemas.ts';
import { Email } from '../users/schemas.ts';

// One line, as ids are: no control character (CR, LF, NUL, BEL…) that could forge a log line or cut a C string.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A remote id: text (a number is taken as its text), 1–1000 characters, no control characters. */
export const RemoteId = v.pipe(
  v.union([v.string(), v.number()], 'must be a string'),
  v.transform(String),
  v.minLength(1, 'must not be empty'),
  v.maxLength(1000, 'must be at most 1000 characters'),
  v.check((id) => !CONTROL.test(id), 'must not contain control characters (line breaks, NUL and the like)'),
);

export const RemoteUser = v.object({ id: RemoteId, email: v.union([v.literal(''), Email], 'must be an email address') });
export type RemoteUser = v.InferOutput<typeof RemoteUser>;

/** An access level: its name one line as a resource name is (the remote id when the connector gives none). */
export const RemoteLevel = v.object({ id: RemoteId, name: Name(200) });
export type RemoteLevel = v.InferOutput<typeof RemoteLevel>;

/** A resource or group as its list gives it (a resource's levels come from another list). */
export const RemoteItem = v.object({ id: RemoteId, name: Name(200), description: v.optional(Text(2000)) });
export type RemoteItem = v.InferOutput<typeof RemoteItem>;

/** One access entry: `principal` holds `item` at `level` ('' the default level). */
export const RemoteEdge = v.object({ principal: RemoteId, item: RemoteId, level: v.union([v.literal(''), RemoteId]) });
export type RemoteEdge = v.InferOutput<typeof RemoteEdge>;

/** A remote value for a message: JSON-quoted (control characters escaped) and short. */
export function quoteRemote(value: unknown): string {
  const text = JSON.stringify(typeof value === 'number' ? String(value) : value) ?? 'nothing';
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** The fields of a remote list entry (an entry that is no object has none). */
export function fieldsOf(raw: unknown): Record<string, unknown> {
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
}

/**
 * Checks each of `raws` (already mapped to the schema's field names) against `schema`: the items that
 * pass, and a sentence per item that does not, naming it as `what` with its id and the first problem.
 */
export function checkRemote<S extends v.GenericSchema>(schema: S, raws: Record<string, unknown>[], what: string): { ok: v.InferOutput<S>[]; refused: string[] } {
  const ok: v.InferOutput<S>[] = [];
  const refused: string[] = [];
  for (const raw of raws) {
    const parsed = v.safeParse(schema, raw);
    if (parsed.success) {
      ok.push(parsed.output);
      continue;
    }
    const issue = parsed.issues[0];
    const field = issue.path?.map((p) => String(p.key)).join('.') ?? '';
    const id = raw.id ?? raw.principal;
    refused.push(`${what} ${quoteRemote(id)} skipped: ${field ? `${field} ` : ''}${issue.message}`);
  }
  return { ok, refused };
}
