// Keyset paging shared by every list endpoint: decode the cursor, then cut the page and sign the next one.
import { createCursorCodec, type CursorCodec, type CursorKey } from '../lib/cursor.ts';
import type { PageQuery } from './common-schemas.ts';
import { invalidField } from './errors.ts';

export interface Page<T> {
  results: T[];
  next: string | null;
  previous: string | null;
}

export class Pager {
  readonly #codec: CursorCodec;

  /**
   * `secret` signs cursors (read workers get it to sign theirs); `maxBytes` bounds a page's JSON: a
   * page stops before the row that would take it past (a shorter page with `next`), one row at least.
   */
  constructor(
    readonly secret: string,
    readonly maxBytes = Number.MAX_SAFE_INTEGER,
  ) {
    this.#codec = createCursorCodec(secret);
  }

  /**
   * The key the page starts after, or null for the first page.
   * Throws validation_failed (path `cursor`) for a cursor this list did not issue.
   */
  after(list: string, query: PageQuery): CursorKey | null {
    if (query.cursor === undefined) return null;
    const key = this.#codec.decode(list, query.cursor);
    if (key === null) throw invalidField('cursor', 'is not a cursor this list issued; start again without one');
    return key;
  }

  /** Like `after`, for lists keyed by sequence number alone. */
  afterSeq(list: string, query: PageQuery): number | null {
    const key = this.after(list, query);
    if (key !== null && typeof key !== 'number') throw invalidField('cursor', 'is not a cursor this list issued; start again without one');
    return key;
  }

  /** The key a cursor of `list` carries. Throws validation_failed naming `field` for a cursor this list did not issue. */
  key(list: string, cursor: string, field: string): CursorKey {
    const key = this.#codec.decode(list, cursor);
    if (key === null) throw invalidField(field, 'is not a cursor this list issued; start again without one');
    return key;
  }

  /** A signed cursor for `key`, for answers that give each item its own cursor. */
  cursor(list: string, key: CursorKey): string {
    return this.#codec.encode(list, key);
  }

  /**
   * `rows` were fetched with LIMIT page_size + 1: the extra row only says another page exists.
   * `keyOf` gives the key of the last row served, and `toItem` maps a row to its API shape.
   */
  page<R, T>(list: string, query: PageQuery, rows: R[], keyOf: (row: R) => CursorKey, toItem: (row: R) => T): Page<T> {
    let more = rows.length > query.page_size;
    const served = more ? rows.slice(0, query.page_size) : rows;
    const results: T[] = [];
    let bytes = 0;
    for (const row of served) {
      const item = toItem(row);
      // Measured as sent (UTF-16 length bounds UTF-8 bytes within 3x; close enough for a memory bound).
      bytes += JSON.stringify(item).length + 1;
      if (bytes > this.maxBytes && results.length > 0) {
        more = true;
        break;
      }
      results.push(item);
    }
    return {
      results,
      next: more ? this.#codec.encode(list, keyOf(served[results.length - 1]!)) : null,
      previous: query.cursor ?? null,
    };
  }
}
