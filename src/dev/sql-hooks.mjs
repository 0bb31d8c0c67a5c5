// Node module hooks for development and tests: `import x from '../sql/0001_x.sql'` yields the file's text,
// the same thing esbuild's text loader does in the built executable.
import { readFile } from 'node:fs/promises';

export async function load(url, context, nextLoad) {
  if (url.endsWith('.sql')) {
    const text = await readFile(new URL(url), 'utf8');
    return { format: 'module', shortCircuit: true, source: `export default ${JSON.stringify(text)};` };
  }
  return nextLoad(url, context);
}
