// An area's store is its own (docs/contributing.md): read from src/ as text, no area imports another
// area's store file at run time, and every call another area makes on ctx.stores is a read the owner
// lists in its area.ts (`sharedReads`), or the audit trail's `events.record`.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AREAS } from '../../src/app.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MODULES = join(ROOT, 'src/modules');

/** The one write every area makes on another's store: each records its own events in the audit trail. */
const AUDIT_TRAIL = 'events.record';

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The area (folder under src/modules) a path belongs to, if any. */
const areaOf = (path: string) => /src\/modules\/([^/]+)\//.exec(path)?.[1];
const isStoreFile = (path: string) => /(^|\/|-)store\.ts$/.test(path);

/**
 * The runtime imports of `text` (a file at `path`), resolved: `import type` and braces holding only
 * `type` names are left out, as they vanish at run time.
 */
function runtimeImports(path: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"](\.[^'"]+)['"]/gm)) {
    if (m[1]) continue;
    const braces = /^\{([^}]*)\}$/.exec(m[2]!.trim());
    if (braces && braces[1]!.split(',').map((name) => name.trim()).filter(Boolean).every((name) => name.startsWith('type '))) continue;
    found.push(resolve(dirname(path), m[3]!));
  }
  for (const m of text.matchAll(/import\(\s*['"](\.[^'"]+)['"]\s*\)/g)) found.push(resolve(dirname(path), m[1]!));
  return found;
}

/** The runtime imports of another area's store files made by a file of `area`. */
function storeImports(path: string, text: string): string[] {
  const area = areaOf(path);
  if (!area) return [];
  return runtimeImports(path, text).filter((target) => isStoreFile(target) && areaOf(target) !== undefined && areaOf(target) !== area);
}

/** `text` without its comment lines (`//`, and the ` * ` lines of doc comments), which may name a store in words. */
const withoutComments = (text: string) => text.replace(/^\s*(\/\/|\/?\*).*$/gm, '');

/** The text from `from` to the end of the block it sits in (the scope of a `const { … } = ctx.stores`). */
function restOfBlock(text: string, from: number): string {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth < 0) return text.slice(from, i);
  }
  return text.slice(from);
}

/**
 * Every use of ctx.stores in `text` as `store.method` (reached as `ctx.stores.store.method`, or through
 * `const { store } = ctx.stores` in the same block), and the uses it cannot follow (`ctx.stores` kept
 * whole, indexed, or a store taken without a method).
 */
function storeCalls(text: string): { calls: string[]; unfollowed: string[] } {
  const calls: string[] = [];
  const unfollowed: string[] = [];
  for (const m of text.matchAll(/ctx\.stores\b(?:\.(\w+)(?:\.(\w+))?)?/g)) {
    if (m[2]) calls.push(`${m[1]}.${m[2]}`);
    else if (m[1]) unfollowed.push(`${m[0]} (a store taken whole)`);
    else if (!/\}\s*=\s*$/.test(text.slice(0, m.index))) unfollowed.push(`${m[0]} (kept whole or indexed)`);
  }
  for (const m of text.matchAll(/\{([^{}]*)\}\s*=\s*ctx\.stores\b/g)) {
    const scope = restOfBlock(text, m.index + m[0].length);
    for (const part of m[1]!.split(',')) {
      const [name, alias] = part.split(':').map((s) => s.trim());
      if (!name) continue;
      const local = alias ?? name;
      if (!/^\w+$/.test(local)) unfollowed.push(`{ ${part.trim()} } = ctx.stores`);
      for (const use of scope.matchAll(new RegExp(`(?<![\\w.])${local}\\.(\\w+)`, 'g'))) calls.push(`${name}.${use[1]}`);
    }
  }
  return { calls, unfollowed };
}

describe('an area\'s store is its own', () => {
  const files = sources(MODULES).map((path) => ({ path, rel: relative(ROOT, path), text: readFileSync(path, 'utf8') }));
  const ownerOf = new Map<string, string>();
  const shared = new Set<string>();
  for (const area of AREAS) {
    for (const store of Object.keys(area.stores ?? {})) ownerOf.set(store, area.name);
    for (const [store, methods] of Object.entries(area.sharedReads ?? {})) {
      for (const method of methods ?? []) shared.add(`${store}.${method}`);
    }
  }

  it('no area imports another area\'s store file at run time (types only, with `import type`)', () => {
    const found = files.flatMap(({ path, rel, text }) => storeImports(path, text).map((target) => `${rel} → ${relative(ROOT, target)}`));
    assert.deepEqual(found, [], 'call the owner\'s service, a read it shares (sharedReads), or the SQL it lends in its sql.ts');
  });

  it('every area names only its own stores in sharedReads, and its folder is its name', () => {
    const folders = new Set(readdirSync(MODULES));
    for (const area of AREAS) {
      if (!folders.has(area.name)) continue; // the outbox, a lower layer, declares its store as an area does
      for (const store of Object.keys(area.sharedReads ?? {})) assert.equal(ownerOf.get(store), area.name, `${area.name} shares ${store}, which it does not build`);
    }
    for (const { rel } of files) {
      const area = areaOf(rel)!;
      if (rel.endsWith('/area.ts')) assert.ok(AREAS.some((a) => a.name === area), `${rel} declares an area not named for its folder`);
    }
  });

  it('another area\'s store is only read, through the reads its owner shares; writes go through the owner\'s service', () => {
    const problems: string[] = [];
    for (const { rel, text } of files) {
      const area = areaOf(rel)!;
      const { calls, unfollowed } = storeCalls(withoutComments(text));
      for (const use of unfollowed) problems.push(`${rel}: ${use} (name the store and the method, so this check can follow it)`);
      for (const call of new Set(calls)) {
        const owner = ownerOf.get(call.split('.')[0]!);
        assert.ok(owner, `${rel} calls ${call}: no area builds that store`);
        if (owner === area || call === AUDIT_TRAIL || shared.has(call)) continue;
        problems.push(`${rel}: ${call} belongs to the ${owner} area (a write goes through its service.ts; a read is listed in its area.ts sharedReads)`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('the checks see what they look for (each fails on a made-up file)', () => {
    const file = join(MODULES, 'widgets/service.ts');
    assert.deepEqual(storeImports(file, "import { stateFromRow } from '../groups/store.ts';\nimport type { X } from '../users/store.ts';\n")
      .map((target) => relative(ROOT, target)), ['src/modules/groups/store.ts']);
    assert.deepEqual(storeImports(file, "import { everyHolder, type Row } from '../access/holdings-store.ts';").length, 1);
    assert.deepEqual(storeImports(file, "import { type Row } from '../access/holdings-store.ts';\nimport { LIVE } from '../access/sql.ts';"), []);
    const { calls, unfollowed } = storeCalls(`
      function a(ctx) { ctx.stores.apps.create({}); const { groups, users: people } = ctx.stores; groups.update(1); people.get(2); }
      function b(ctx) { const groups = []; return groups.length + ctx.stores.events.record(); }
      function c(ctx) { const s = ctx.stores; s.resources.update(); }`);
    assert.deepEqual(calls.sort(), ['apps.create', 'events.record', 'groups.update', 'users.get']);
    assert.equal(unfollowed.length, 1);
  });
});
