// Runs every test/**/*.test.ts with node:test through tsx. Node 20's `node --test` neither expands
// globs nor finds .ts files, so the list is made here; an empty list is an error, never a silent pass.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// A test that hangs fails after this long instead of holding CI to its 90-minute limit.
const TEST_TIMEOUT_MS = 180_000;

const root = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv.slice(2);

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'helpers' ? [] : find(path);
    return entry.name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

const files = find(join(root, 'test'))
  .filter((file) => only.length === 0 || only.some((part) => file.includes(part)))
  .sort();
if (files.length === 0) {
  console.error('test/run.mjs: no test files found');
  process.exit(1);
}

const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--import', './src/dev/register-sql.mjs', '--test', '--test-reporter=spec', `--test-timeout=${TEST_TIMEOUT_MS}`, ...files],
  { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
