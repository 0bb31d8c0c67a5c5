// The console's files: its style sheet (console/style.ts, plain CSS in a string) and its script —
// embedded by build.mjs in the executable (the GATEHOUSE_CONSOLE_JS define), bundled on first use
// with esbuild under tsx (console/bundle.mjs), so `npm start` and the tests serve the current source.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONSOLE_STYLE } from '../../../console/style.ts';

declare const GATEHOUSE_CONSOLE_JS: string | undefined;

export const CONSOLE_CSS: string = CONSOLE_STYLE;

let script: Promise<string> | undefined;

/** The console's script. Under tsx it is bundled from console/ (relative to the working directory, the repository root). */
export function consoleScript(): Promise<string> {
  if (typeof GATEHOUSE_CONSOLE_JS === 'string') return Promise.resolve(GATEHOUSE_CONSOLE_JS);
  // Not a literal import: esbuild must not pull esbuild itself into the executable.
  const bundler = pathToFileURL(join(process.cwd(), 'console', 'bundle.mjs')).href;
  script ??= (import(bundler) as Promise<{ bundleConsole(): Promise<string> }>).then((m) => m.bundleConsole());
  return script;
}
