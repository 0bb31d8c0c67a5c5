// SCIM's error answer (RFC 7644 §3.12): Gatehouse's one error type, with the scimType a SCIM client
// branches on, written in the SCIM error schema instead of Gatehouse's error shape.
import { AppError, type ErrorCode, type FieldProblem } from '../../http/errors.ts';

export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644 Table 9's scimType values Gatehouse answers. */
export type ScimType = 'uniqueness' | 'invalidFilter' | 'invalidSyntax' | 'invalidValue' | 'mutability' | 'noTarget' | 'invalidPath' | 'tooMany';

/** An AppError that also says which SCIM problem it is. */
export class ScimProblem extends AppError {
  constructor(code: ErrorCode, readonly scimType: ScimType | undefined, message: string, details: FieldProblem[] = []) {
    super(code, message, details);
  }
}

export const invalidValue = (path: string, message: string) => new ScimProblem('validation_failed', 'invalidValue', `${path}: ${message}`, [{ path, message }]);
export const invalidFilter = (message: string) => new ScimProblem('validation_failed', 'invalidFilter', `filter: ${message}`, [{ path: 'filter', message }]);
export const invalidSyntax = (message: string) => new ScimProblem('validation_failed', 'invalidSyntax', message);
export const mutability = (path: string, message: string) => new ScimProblem('validation_failed', 'mutability', `${path}: ${message}`, [{ path, message }]);
export const invalidPath = (message: string) => new ScimProblem('validation_failed', 'invalidPath', message);
export const noTarget = (message: string) => new ScimProblem('validation_failed', 'noTarget', message);

/** The scimType of any AppError: its own, or the nearest for Gatehouse's codes. */
function scimTypeOf(error: AppError): ScimType | undefined {
  if (error instanceof ScimProblem) return error.scimType;
  if (error.code === 'invalid_json') return 'invalidSyntax';
  if (error.code === 'validation_failed') return 'invalidValue';
  // A conflict over a value already taken (an email, a name) is uniqueness; others (the last admin) are not.
  if (error.code === 'conflict' && error.details.some((d) => d.message === 'already in use')) return 'uniqueness';
  return undefined;
}

/** The SCIM error body for `error` (status as a string, as RFC 7644 §3.12 writes it). */
export function scimErrorBody(error: AppError): Record<string, unknown> {
  const scimType = scimTypeOf(error);
  return { schemas: [ERROR_SCHEMA], status: String(error.status), ...(scimType && { scimType }), detail: error.message };
}
