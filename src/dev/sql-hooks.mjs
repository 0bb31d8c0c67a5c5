// Node module hooks for development and tests: `import x from '../sql/0001_x.sql'` yields the file's text,
// and so does any import with `with { type: 'text' }` (the /docs viewer's files) — the same things
// esbuild does in the built executable (its text loader, and its native support for that attribute).
import { readFile } from 'node:fs/promises';

export async function load(url, context, nextLoad) {
  if (url.endsWith('.sql') || context.importAttributes?.type === 'text') {
    const text = await readFile(new URL(url), 'utf8');
    return { format: 'module', shortCircuit: true, source: `export default ${JSON.stringify(text)};` };
  }
  return nextLoad(url, context);
}
