// Valibot pieces every module's schemas are built from: ids, query-string numbers and lists, paging.
import { MAX_MINUTES } from '../lib/durations.ts';
import * as v from 'valibot';
import { parseDateInput, type DateInput } from '../lib/dates.ts';
// Each `v.metadata({ openapi })` tells the API document what a query-string value is on the wire (src/openapi/valibot.ts).

export const Uuid = v.pipe(v.string('must be a string'), v.uuid('must be a UUID'));

// NUL is never text (C strings, logs and terminals cut or mangle it); a name is one line, so it takes
// no control character at all.
const NUL = /\u0000/;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A string capped so one field cannot fill the database, and never holding NUL. */
/** A list of ids of one kind: UUIDs, lower-cased, each once (a repeat would be stored and shown twice), at most 1000. */
export const IdList = (what: string) =>
  v.pipe(
    v.array(Uuid, `must be a list of ${what} ids`),
    v.maxLength(1000, 'must list at most 1000 ids'),
    v.transform((ids) => ids.map((id) => id.toLowerCase())),
    v.check((ids) => new Set(ids).size === ids.length, `must not list the same ${what} twice`),
  );

export const Text = (max = 1000) =>
  v.pipe(
    v.string('must be a string'),
    v.maxLength(max, `must be at most ${max} characters`),
    v.check((text) => !NUL.test(text), 'must not contain a NUL character'),
  );

/** A non-empty one-line string without surrounding whitespace noise. */
export const Name = (max = 200) =>
  v.pipe(
    Text(max),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.check((name) => !CONTROL.test(name), 'must not contain control characters (line breaks, tabs and the like)'),
  );

/** A whole number carried as query-string text. */
export const QueryInteger = (min: number, max: number) =>
  v.pipe(
    v.string('must be given once'),
    v.regex(/^-?\d{1,15}$/, 'must be a whole number'),
    v.metadata({ openapi: { type: 'integer', minimum: min, maximum: max } }),
    v.transform(Number),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

/**
 * A list in the query string: repeated keys (`?id=a&id=b`) and, where the reference says
 * `explode: false`, comma-separated values (`?id=a,b`), each item checked by `item`.
 */
export const QueryList = <S extends v.GenericSchema<string, unknown>>(item: S, options: { commaSeparated?: boolean } = {}) =>
  v.pipe(
    v.union([v.string(), v.array(v.string())], 'must be a string or a list of strings'),
    v.metadata({ openapi: { arrayOf: item, commaSeparated: options.commaSeparated ?? false } }),
    v.transform((raw: string | string[]) => {
      const values = Array.isArray(raw) ? raw : [raw];
      return options.commaSeparated ? values.flatMap((value) => value.split(',')) : values;
    }),
    v.maxLength(1000, 'must list at most 1000 values'),
    v.array(item),
  );

export const QueryBoolean = v.pipe(
  v.string('must be given once'),
  v.metadata({ openapi: { type: 'boolean' } }),
  // In any case (True, TRUE…), as some clients write booleans.
  v.toLowerCase(),
  v.picklist(['true', 'false'], 'must be true or false'),
  v.transform((raw) => raw === 'true'),
);

export const PAGE_SIZE_DEFAULT = 200;
export const PAGE_SIZE_MAX = 1000;

/** `cursor` and `page_size`, to spread into a list endpoint's query schema. */
export const PageQueryEntries = {
  cursor: v.optional(v.pipe(v.string('must be given once'), v.minLength(1, 'must not be empty'))),
  page_size: v.optional(QueryInteger(1, PAGE_SIZE_MAX), String(PAGE_SIZE_DEFAULT)),
};

export interface PageQuery {
  cursor?: string | undefined;
  page_size: number;
}

/** Access-edge durations: minutes, 0 meaning indefinite, at most a year (525960 minutes). */
export const EdgeDurationMinutes = v.pipe(
  v.number('must be a number'),
  v.integer('must be a whole number'),
  v.minValue(0, 'must be at least 0'),
  v.maxValue(MAX_MINUTES, `must be at most ${MAX_MINUTES}`),
);

/**
 * A date filter in the query string: a date (`2021-11-01`, a whole UTC day) or a date-time with a zone
 * (`2025-01-01T00:00:00Z`, `2025-01-01 00:00:00+00:00`). Impossible dates and times are refused.
 */
export const QueryDate = v.pipe(
  v.string('must be given once'),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const parsed = parseDateInput(dataset.value);
    if (parsed) return parsed;
    addIssue({ message: 'must be a real date (YYYY-MM-DD) or date-time with a time zone (YYYY-MM-DDTHH:MM:SSZ, YYYY-MM-DD HH:MM:SS+00:00)' });
    return NEVER;
  }),
);
export type { DateInput };
