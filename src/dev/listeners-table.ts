// The table of who listens to what, made from the areas' declarations (src/areas.ts): each signal with the
// areas announcing it and those acting on it, who hears every access change, and which area runs each
// outbox kind. `npm run docs:listeners` rewrites it in docs/contributing.md; test/docs/listeners.test.ts
// fails when that copy is stale.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Area } from '../area.ts';
import { AREAS } from '../areas.ts';
import { rewriteSection } from './generated-section.ts';

export const CONTRIBUTING = fileURLToPath(new URL('../../docs/contributing.md', import.meta.url));
const MODULES = fileURLToPath(new URL('../modules', import.meta.url));
export const BEGIN = '<!-- listeners table: made from the areas in src/areas.ts by `npm run docs:listeners`; do not edit by hand -->';
export const END = '<!-- end of listeners table -->';

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/**
 * The areas announcing each signal, found where the code calls `announce(ctx, '<name>', …)`: the name is
 * a literal at every call (the Signals interface types it), so the calls say who announces what.
 */
function announcers(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const file of sources(MODULES)) {
    const area = relative(MODULES, file).split(/[\\/]/)[0]!;
    for (const match of readFileSync(file, 'utf8').matchAll(/\bannounce\(\s*\w+,\s*'([^']+)'/g)) {
      (found.get(match[1]!) ?? found.set(match[1]!, new Set()).get(match[1]!)!).add(area);
    }
  }
  return found;
}

const names = (list: Iterable<string>) => [...list].sort().map((name) => `\`${name}\``).join(', ') || '—';

/** The three tables, markers included, from `areas`. */
export function listenersTable(areas: readonly Area[] = AREAS): string {
  const announced = announcers();
  const heard = new Map<string, string[]>();
  for (const area of areas) for (const name of Object.keys(area.signals ?? {})) heard.set(name, [...(heard.get(name) ?? []), area.name]);
  const signals = [...new Set([...announced.keys(), ...heard.keys()])].sort();
  const outbox = areas.flatMap((area) => Object.keys(area.outbox ?? {}).map((kind) => [kind, area.name] as const)).sort(([a], [b]) => a.localeCompare(b));
  return [
    BEGIN,
    '',
    '| signal | announced by | heard by |',
    '|---|---|---|',
    ...signals.map((name) => `| \`${name}\` | ${names(announced.get(name) ?? [])} | ${names(heard.get(name) ?? [])} |`),
    '',
    '| every access change (access/changes.ts), heard by |',
    '|---|',
    `| ${names(areas.filter((area) => area.onAccessChange).map((area) => area.name))} |`,
    '',
    '| outbox kind | run by |',
    '|---|---|',
    ...outbox.map(([kind, area]) => `| \`${kind}\` | \`${area}\` |`),
    '',
    END,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  rewriteSection({ file: CONTRIBUTING, begin: BEGIN, end: END }, listenersTable(), 'listeners table');
}
