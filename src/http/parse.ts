// Validation at the edge: raw input + a Valibot schema → typed value, or one 400 naming every bad field.
import * as v from 'valibot';
import { AppError, type FieldProblem } from './errors.ts';

/** Parses `input` with `schema`; throws validation_failed with a { path, message } per problem. */
export function parse<S extends v.GenericSchema>(schema: S, input: unknown, where = 'body'): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  const details: FieldProblem[] = result.issues.map((issue) => ({
    path: v.getDotPath(issue) ?? where,
    message: issue.message,
  }));
  const first = details[0]!;
  const summary = details.length === 1 ? `${first.path}: ${first.message}` : `${details.length} problems, first ${first.path}: ${first.message}`;
  throw new AppError('validation_failed', `invalid ${where}: ${summary}`, details);
}
