// The one error type, its closed set of codes, and the one table from code to HTTP status.
// Codes are contract (clients branch on them); messages are for people.

export const ERROR_STATUS = {
  invalid_json: 400,
  validation_failed: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  // Answered by the server before any route (src/http-server.ts): the request's head came too slowly, or too big.
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  headers_too_large: 431,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One problem with the input: `path` is the field (dotted, e.g. `resources.2.resource_id`). */
export interface FieldProblem {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: FieldProblem[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** Shorthand for the common 404 on an id given in the path or body. */
export function notFound(what: string, id: string, path?: string): AppError {
  return new AppError('not_found', `${what} ${id} was not found`, path ? [{ path, message: `no ${what} with this id` }] : []);
}

/** Shorthand for one invalid field. */
export function invalidField(path: string, message: string): AppError {
  return new AppError('validation_failed', `${path}: ${message}`, [{ path, message }]);
}

interface SqliteLikeError {
  code: string;
  message: string;
}

function isSqliteError(err: unknown): err is SqliteLikeError {
  return err instanceof Error && err.name === 'SqliteError' && typeof (err as { code?: unknown }).code === 'string';
}

/**
 * Turns whatever was thrown into an AppError, or null when it is a fault of ours (→ 500).
 * Constraint violations that escaped a service's own checks are translated here, naming the column
 * but never quoting SQL.
 */
export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  if (isSqliteError(err)) {
    const column = /constraint failed: \w+\.(\w+)/.exec(err.message)?.[1];
    if (err.code === 'SQLITE_CONSTRAINT_UNIQUE' || err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
      return new AppError(
        'conflict',
        column ? `a record with this ${column} already exists` : 'the record already exists',
        column ? [{ path: column, message: 'already in use' }] : [],
      );
    }
    if (err.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
      return new AppError('conflict', 'the change would leave a reference to a record that does not exist');
    }
    // BUSY, BUSY_SNAPSHOT, BUSY_RECOVERY, BUSY_TIMEOUT, LOCKED, LOCKED_SHAREDCACHE…: another writer
    // (the CLI, a backup) held the database past busy_timeout. Nothing was written; retrying is right.
    if (/^SQLITE_(BUSY|LOCKED)(_|$)/.test(err.code)) {
      return new AppError('unavailable', 'the database is busy; try again', [], { 'Retry-After': '1' });
    }
  }
  return null;
}
