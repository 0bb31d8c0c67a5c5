// Bundles the console's front end (console/main.tsx, Preact) into one minified script with esbuild.
// build.mjs embeds the result in the executable; under tsx, src/modules/console/assets.ts calls this
// on the first request for the script. One set of options for both, so dev and the executable agree.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The console's script, as text. */
export async function bundleConsole() {
  const result = await build({
    entryPoints: [path.join(here, 'main.tsx')],
    bundle: true,
    minify: true,
    write: false,
    format: 'iife',
    target: 'es2020',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}
