// build.mjs — `npm run build`: produce dist/gatehouse, ONE self-contained Linux
// executable (Node runtime + bundled app + SQLite addon), entirely offline.
//
// What it does:
//   1. esbuild bundles src/main.ts (our code, SQL files as text, better-sqlite3's
//      JS, polka, valibot) into one CommonJS file: Node 20's single-executable
//      (SEA) main script must be CJS, and its `require` only loads builtins, so
//      nothing may be left to resolve from node_modules at run time.
//   2. `node --experimental-sea-config` turns that bundle plus the native addon
//      (asset "better_sqlite3.node") into a SEA preparation blob.
//   3. A copy of the LOCAL node binary (process.execPath — the blob must come
//      from the exact same Node version) is optionally stripped, then postject's
//      JS API injects the blob and flips the SEA fuse.
//   At run time src/db/native-addon.ts extracts the addon asset to a per-user
//   cache file (named by SHA-256) and hands that path to better-sqlite3 via its
//   `nativeBinding` option; a .node file can only be dlopen()ed from disk, and
//   better-sqlite3's default lookup (the `bindings` package) searches
//   node_modules, which does not exist next to the executable.
//
// Why not pkg: pkg's classic mode downloads pre-patched base binaries; its
// --sea mode would be the right tool, but @yao-pkg/pkg >= 6.15 refuses hosts
// below Node 22 ("SEA support requires at least node v22.0.0"), and 6.14.x
// (the last to accept Node 20) always downloads Node from nodejs.org in --sea
// mode (no local-node option in its CLI/`exec()` API; it fails offline with
// "TypeError: fetch failed"), cannot embed assets, and shells out to
// `npx postject`. So we do by hand the three steps pkg --sea performs.
//
// Usage: node build.mjs [--out FILE]   (default dist/gatehouse; the tests build into a temp dir)
// Env: GATEHOUSE_STRIP=0 skips `strip` (stripping saves ~12 MB when binutils exist).
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
// Intermediate files sit beside the output, so concurrent builds to different places never collide.
const work = path.join(path.dirname(out), `.sea-${path.basename(out)}`);
const bundle = path.join(work, 'gatehouse.cjs');
const blob = path.join(work, 'gatehouse.blob');
const ADDON_ASSET = 'better_sqlite3.node'; // must match src/db/native-addon.ts
const addon = path.join(path.dirname(require.resolve('better-sqlite3/package.json')), 'build/Release/better_sqlite3.node');
const SEA_FUSE = ['NODE_SEA_FUSE', 'fce680ab2cc467b6e072b8b5df1996b2'].join('_');

function step(name) {
  console.log(`build: ${name}`);
}
function fail(msg) {
  console.error(`build: FAILED: ${msg}`);
  process.exit(1);
}
function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: work });
  if (r.error) fail(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) fail(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
}

try {
  if (!fs.existsSync(entry)) fail(`missing entry ${entry}`);
  if (!fs.existsSync(addon)) fail(`missing native addon ${addon} (did npm install build better-sqlite3?)`);
  if (process.platform !== 'linux') fail(`this script builds Linux executables; host is ${process.platform}`);
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const started = Date.now();

  step(`bundle ${path.relative(root, entry)} (esbuild, cjs, node20)`);
  await build({
    entryPoints: [entry],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    loader: { '.sql': 'text' },
    // better-sqlite3 only calls require('bindings') when no nativeBinding is
    // given, which never happens inside the SEA; keep it out of the bundle.
    external: ['bindings'],
    // import.meta.* would be {} in CJS output: make any use in src a hard error.
    logOverride: { 'empty-import-meta': 'error' },
    // SEA (Node 20) has no ESM loader: turn import() into require().
    supported: { 'dynamic-import': false },
    legalComments: 'none',
    logLevel: 'warning',
  });

  step('generate SEA blob (node --experimental-sea-config)');
  const seaConfig = path.join(work, 'sea-config.json');
  fs.writeFileSync(seaConfig, JSON.stringify({
    main: bundle,
    output: blob,
    disableExperimentalSEAWarning: true,
    useCodeCache: true,
    useSnapshot: false,
    assets: { [ADDON_ASSET]: addon },
  }, null, 2));
  run(process.execPath, ['--experimental-sea-config', seaConfig]);
  if (!fs.existsSync(blob)) fail('node did not write the SEA blob');

  step(`copy node runtime ${process.execPath} (${process.version})`);
  const tmpOut = `${out}.tmp`;
  fs.rmSync(tmpOut, { force: true });
  fs.copyFileSync(process.execPath, tmpOut);
  fs.chmodSync(tmpOut, 0o755);
  if (process.env.GATEHOUSE_STRIP !== '0') {
    const probe = spawnSync('strip', ['--version'], { stdio: 'ignore' });
    if (probe.error) console.warn('build: `strip` not found; keeping debug symbols');
    else run('strip', [tmpOut]); // strip BEFORE injecting: stripping afterwards corrupts the blob
  }

  step('inject blob (postject)');
  const { inject } = require('postject');
  await inject(tmpOut, 'NODE_SEA_BLOB', fs.readFileSync(blob), { sentinelFuse: SEA_FUSE });
  fs.renameSync(tmpOut, out);

  step('verify: SEA fuse flipped');
  if (!fs.readFileSync(out).includes(`${SEA_FUSE}:1`)) fail(`SEA fuse not set in ${out}`);

  fs.rmSync(work, { recursive: true, force: true });
  const mb = (fs.statSync(out).size / 1048576).toFixed(1);
  console.log(`build: OK ${path.relative(root, out)} (${mb} MB, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
} catch (err) {
  fail(err instanceof Error ? err.stack ?? err.message : String(err));
}
