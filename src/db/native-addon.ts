// Owns: locating better-sqlite3's native addon (better_sqlite3.node).
//
// - Normal `node`/tsx runs: returns undefined, so better-sqlite3 falls back to
//   its own `bindings` lookup under node_modules (passing `nativeBinding:
//   undefined` is identical to omitting it in better-sqlite3 12.x).
// - Inside the single executable (Node SEA, built by build.mjs): the addon is
//   embedded as the SEA asset NATIVE_ADDON_ASSET. A .node file can only be
//   dlopen()ed from disk, so it is extracted once to a per-user cache file named
//   by its SHA-256 (written to a temp file, then renamed: concurrent starts and
//   upgrades never see a partial or foreign file) and that path is returned.
//
// Inside a SEA the bundle's `require` only loads builtins, so better-sqlite3's
// `require(nativeBinding)` would fail. better-sqlite3 prefers a global
// `__non_webpack_require__` when one exists; we install a real file-based
// require there (SEA only), so the returned path loads via process.dlopen.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import * as sea from 'node:sea';

/** The addon's SHA-256, which build.mjs defines in the executable's bundles (absent under tsx). */
declare const GATEHOUSE_ADDON_SHA256: string | undefined;

/** SEA asset key under which build.mjs embeds better_sqlite3.node. */
export const NATIVE_ADDON_ASSET = 'better_sqlite3.node';

let cached: string | undefined;

export function nativeAddonPath(): string | undefined {
  if (!sea.isSea()) return undefined;
  if (cached !== undefined) return cached;

  // getRawAsset returns a read-only view of the executable's own memory (no copy).
  const raw = sea.getRawAsset(NATIVE_ADDON_ASSET);
  if (typeof raw === 'string') throw new Error(`gatehouse: SEA asset ${NATIVE_ADDON_ASSET} is not binary`);
  const bytes = new Uint8Array(raw);
  // build.mjs takes the digest once; hashing 2 MB at every start (and in every read worker) is start-up time.
  const hash = typeof GATEHOUSE_ADDON_SHA256 === 'string' ? GATEHOUSE_ADDON_SHA256 : createHash('sha256').update(bytes).digest('hex');
  const dir = cacheDir();
  const file = path.join(dir, `better_sqlite3-${hash.slice(0, 16)}.node`);

  if (!hasContent(file, bytes)) {
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    try {
      fs.writeFileSync(tmp, bytes, { mode: 0o700, flag: 'wx' });
      fs.renameSync(tmp, file);
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      // Another process may have won the race with identical content.
      if (!hasContent(file, bytes)) throw err;
    }
  }

  const g = globalThis as { __non_webpack_require__?: NodeJS.Require };
  g.__non_webpack_require__ ??= createRequire(process.execPath);
  cached = file;
  return file;
}

/** True if `file` exists and holds exactly `bytes` (compared byte for byte: cheaper than a digest, and as strict). */
function hasContent(file: string, bytes: Uint8Array): boolean {
  try {
    return Buffer.compare(fs.readFileSync(file), bytes) === 0;
  } catch {
    return false;
  }
}

/**
 * The first usable of: $GATEHOUSE_CACHE_DIR; $CACHE_DIRECTORY (set by systemd's CacheDirectory=);
 * $XDG_CACHE_HOME/gatehouse; ~/.cache/gatehouse; <tmpdir>/gatehouse-<uid>. A candidate is usable
 * when it can be created (0700) and is owned by us and not world-writable, so another user cannot
 * plant a library for us to load. An explicit GATEHOUSE_CACHE_DIR that is unusable is an error;
 * the others fall through (a service account often has no writable home).
 */
function cacheDir(): string {
  const env = process.env;
  const explicit = env.GATEHOUSE_CACHE_DIR;
  if (explicit) return usableDir(explicit);
  const home = env.HOME || safeHomedir();
  const candidates = [
    env.CACHE_DIRECTORY?.split(':')[0],
    env.XDG_CACHE_HOME ? path.join(env.XDG_CACHE_HOME, 'gatehouse') : undefined,
    home ? path.join(home, '.cache', 'gatehouse') : undefined,
    path.join(os.tmpdir(), `gatehouse-${process.getuid?.() ?? 'user'}`),
  ].filter((dir): dir is string => Boolean(dir));
  const failures: string[] = [];
  for (const dir of candidates) {
    try {
      return usableDir(dir);
    } catch (err) {
      failures.push(err instanceof Error ? err.message : String(err));
    }
  }
  throw new Error(`gatehouse: no usable cache directory for the SQLite addon; set GATEHOUSE_CACHE_DIR (${failures.join('; ')})`);
}

function usableDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.statSync(dir);
  const uid = process.getuid?.();
  if (uid !== undefined && (st.uid !== uid || (st.mode & 0o002) !== 0)) {
    throw new Error(`gatehouse: refusing unsafe cache directory ${dir} (not owned by uid ${uid}, or world-writable)`);
  }
  fs.accessSync(dir, fs.constants.W_OK);
  return dir;
}

function safeHomedir(): string | undefined {
  try {
    return os.homedir() || undefined;
  } catch {
    return undefined;
  }
}
