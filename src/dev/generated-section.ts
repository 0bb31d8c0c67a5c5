// A section of a doc that a script makes (a table between two marker comments): the settings table, the
// event types, the listeners. Each script says what goes between its markers; this swaps it in.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Where a generated section lives: its file and the two comments around it. */
export interface Section {
  file: string;
  begin: string;
  end: string;
}

/** `doc` with the text between `section`'s markers (markers included) replaced by `made`; throws when they are missing. */
export function withSection(doc: string, section: Section, made: string): string {
  const start = doc.indexOf(section.begin);
  const end = doc.indexOf(section.end);
  if (start < 0 || end < start) throw new Error(`${section.file} has no generated section between "${section.begin}" and "${section.end}"`);
  return doc.slice(0, start) + made + doc.slice(end + section.end.length);
}

/** Rewrites `section` of its file with `made` (markers included) when it differs, and says which it did. */
export function rewriteSection(section: Section, made: string, what: string): void {
  const before = readFileSync(section.file, 'utf8');
  const after = withSection(before, section, made);
  if (after !== before) writeFileSync(section.file, after);
  const name = `${basename(dirname(section.file)) === 'docs' ? 'docs/' : ''}${basename(section.file)}`;
  process.stdout.write(`${name}: ${what} ${after === before ? 'already up to date' : 'rewritten'}\n`);
}
