// The README's configuration table, made from SETTINGS in src/config.ts. `npm run docs:settings`
// rewrites it in place; test/docs/settings-table.test.ts fails when the README's copy is stale.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SETTINGS, type Setting } from '../config.ts';
import { rewriteSection } from './generated-section.ts';

export const README = fileURLToPath(new URL('../../README.md', import.meta.url));
export const BEGIN = '<!-- settings table: made from SETTINGS in src/config.ts by `npm run docs:settings`; do not edit by hand -->';
export const END = '<!-- end of settings table -->';

/** A table cell: pipes would end it, newlines would end the row. */
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** Plain values are shown as code; prose defaults (with their own code spans) as they are. */
const shownDefault = (setting: Setting<unknown>) =>
  setting.defaultText !== undefined ? setting.defaultText : `\`${String(setting.default)}\``;

/** The table, markers included, one row per setting in definition order. */
export function settingsTable(): string {
  const rows = Object.values(SETTINGS).map((s: Setting<unknown>) =>
    [`\`${s.env}\``, s.flag ? `\`--${s.flag.name} ${s.flag.value}\`` : '', shownDefault(s), s.accepts ?? 'text',
      // Opted in to the console's Settings page: said where people look for a setting (docs/settings.md).
      s.editable ? `${s.description}; also set on the console's Settings page (the variable wins)` : s.description]
      .map(cell)
      .join(' | '),
  );
  return [BEGIN, '| variable | flag | default | accepts | meaning |', '|---|---|---|---|---|', ...rows.map((r) => `| ${r} |`), END].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  rewriteSection({ file: README, begin: BEGIN, end: END }, settingsTable(), 'settings table');
}
