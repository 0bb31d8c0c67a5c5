// The work one request may do: a number of rows read and a wall-clock deadline, checked between steps.
import { invalidField } from '../http/errors.ts';

/** What a read may spend; plain data, so it crosses to a read worker unchanged. */
export interface BudgetLimits {
  /** Rows a read may visit (graph rows, snapshot rows...). */
  maxRows: number;
  /** Epoch ms past which the read stops. */
  deadlineMs: number;
}

/**
 * Counts what a read spends. `spend` throws validation_failed naming `path` (the part of the input
 * that asked for the work) once the rows or the time run out, so a request that would run long is
 * answered at once with "narrow it" instead of running for as long as the catalogue is big.
 */
export class WorkBudget {
  #rows = 0;
  constructor(readonly limits: BudgetLimits) {}

  static unlimited(): WorkBudget {
    return new WorkBudget({ maxRows: Number.MAX_SAFE_INTEGER, deadlineMs: Number.MAX_SAFE_INTEGER });
  }

  get rows(): number {
    return this.#rows;
  }

  /** Counts `rows` more; throws validation_failed naming `path` past either limit. */
  spend(rows: number, path: string): void {
    this.#rows += rows;
    if (this.#rows > this.limits.maxRows) {
      throw invalidField(path, `needs more than ${this.limits.maxRows} rows of work, more than one request may do; narrow it`);
    }
    if (Date.now() > this.limits.deadlineMs) {
      throw invalidField(path, 'needs more time than one request may take; narrow it');
    }
  }
}

/** Pages up to this many rows are built on the main thread: the trip to a worker costs more than they do. */
export const INLINE_PAGE_SIZE = 100;
