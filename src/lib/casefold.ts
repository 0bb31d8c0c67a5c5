// The one case-folding rule behind every case-insensitive filter: the JS side folds the search text,
// the SQL side calls the same function, registered on the connection as casefold(text).

const ASCII = /^[\x00-\x7f]*$/;

/**
 * Folds `text` for comparison: NFKC normalisation (so "ﬁ" is "fi" and a composed "É" equals "E" +
 * combining accent), then Unicode upper-then-lower case mapping in no particular locale (so "É" is
 * "é", "Σ"/"ς" are "σ", and "ß" is "ss", which lower-casing alone does not do).
 */
export function casefold(text: string): string {
  // Most names are ASCII, where all of the above is plain lower-casing; a list filter folds every
  // candidate row, so this path keeps it cheap (measured in npm run bench).
  if (ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFKC').toLocaleUpperCase('und').toLocaleLowerCase('und').normalize('NFKC');
}

/** The SQL function's body: folds text, passes anything else (NULL) through. */
export function casefoldSql(value: unknown): unknown {
  return typeof value === 'string' ? casefold(value) : value;
}
