// Validation at the edge: raw input + a Valibot schema → typed value, or one 400 naming every bad field
// in Gatehouse's own words (the one place Valibot issues become messages).
import * as v from 'valibot';
import { AppError, type FieldProblem } from './errors.ts';

type Where = 'body' | 'query' | 'path';

/**
 * The wording of a wrong type, by the Valibot schema type that refused it. Keyed on the kind of
 * fault, not on the schema's own message, so one fault reads the same on every route.
 */
const TYPE_WORDING: Record<string, string> = {
  string: 'must be a string',
  number: 'must be a number',
  boolean: 'must be true or false',
  object: 'must be a JSON object',
  loose_object: 'must be a JSON object',
  strict_object: 'must be a JSON object',
  record: 'must be a JSON object',
  array: 'must be a list',
  null: 'must be null',
};

/** What the library says when a schema has no message of ours: never shown to a client. */
const LIBRARY_MESSAGE = /^Invalid \w+: /;

type Issue = v.BaseIssue<unknown>;

/** A key the object requires is absent (Valibot reports it on the object, with the key as path). */
function isMissingKey(issue: Issue): boolean {
  const last = issue.path?.at(-1);
  return issue.kind === 'schema' && last?.type === 'object' && (last as { origin?: string }).origin === 'key';
}

/** The message for one issue: Gatehouse's wording for the kind of fault, else the schema's own message. */
export function wordingOf(issue: Issue, where: Where): string {
  if (isMissingKey(issue)) return 'is required';
  if (issue.kind === 'schema') {
    // A repeated query key arrives as a list where one value is expected.
    if (issue.type === 'string' && where === 'query' && Array.isArray(issue.input)) return 'must be given once';
    const wording = TYPE_WORDING[issue.type];
    if (wording) return wording;
  }
  if (!LIBRARY_MESSAGE.test(issue.message)) return issue.message;
  return issue.kind === 'schema' ? 'has the wrong type' : 'is not valid';
}

/** The dotted path of an issue (`owners.2.name`), or `where` for the whole body or query. */
function pathOf(issue: Issue, where: Where): string {
  return v.getDotPath(issue) ?? where;
}

/** Parses `input` with `schema`; throws validation_failed with a { path, message } per problem. */
export function parse<S extends v.GenericSchema>(schema: S, input: unknown, where: Where = 'body'): v.InferOutput<S> {
  // Valibot's object schemas take an array as an object; no body or query is a list, so refuse it here once.
  if (Array.isArray(input)) fail(where, [{ path: where, message: TYPE_WORDING.object! }]);
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  fail(where, result.issues.map((issue) => ({ path: pathOf(issue, where), message: wordingOf(issue, where) })));
}

/** Throws validation_failed; the message starts `invalid body:` / `invalid query:` and names the first problem. */
export function fail(where: Where, details: FieldProblem[]): never {
  const first = details[0]!;
  const summary = details.length === 1 ? `${first.path}: ${first.message}` : `${details.length} problems, first ${first.path}: ${first.message}`;
  throw new AppError('validation_failed', `invalid ${where}: ${summary}`, details);
}
