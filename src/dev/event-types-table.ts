// docs/events.md's table of event types, made from EVENT_TYPE_GROUPS in src/modules/events/types.ts.
// `npm run docs:events` rewrites it in place; test/docs/event-types.test.ts fails when the page's copy is stale.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EVENT_TYPE_GROUPS } from '../modules/events/types.ts';
import { rewriteSection } from './generated-section.ts';

export const EVENTS_PAGE = fileURLToPath(new URL('../../docs/events.md', import.meta.url));
export const BEGIN = '<!-- event types: made from src/modules/events/types.ts by `npm run docs:events`; do not edit by hand -->';
export const END = '<!-- end of event types -->';

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The table, markers included: a heading row per group, then one row per type in definition order. */
export function eventTypesTable(): string {
  const rows: string[] = [];
  for (const [group, types] of Object.entries(EVENT_TYPE_GROUPS)) {
    rows.push(`| **${cell(group)}** | |`);
    for (const [type, description] of Object.entries(types)) rows.push(`| \`${type}\` | ${cell(description)} |`);
  }
  return [BEGIN, '| event_type | recorded when |', '|---|---|', ...rows, END].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  rewriteSection({ file: EVENTS_PAGE, begin: BEGIN, end: END }, eventTypesTable(), 'event types');
}
