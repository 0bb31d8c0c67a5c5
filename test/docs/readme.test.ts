// The README's closed lists agree with the code (the error codes and their statuses), and every
// link in the README and docs/ leads to a file and heading that exist.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ERROR_STATUS } from '../../src/http/errors.ts';
import { README } from '../../src/dev/settings-table.ts';

const readme = readFileSync(README, 'utf8');
const root = fileURLToPath(new URL('../../', import.meta.url));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
}

describe('README', () => {
  it('lists every error code with its status, and no other', () => {
    const rows = [...readme.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]);
    assert.deepEqual(Object.fromEntries(rows), ERROR_STATUS);
    assert.equal(rows.length, Object.keys(ERROR_STATUS).length, 'a code is listed twice');
  });

  it('links only to files that exist, and to every page in docs/', () => {
    const targets = [...readme.matchAll(/\]\((docs\/[^)#]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!);
    assert.deepEqual(targets.filter((t) => !existsSync(root + t)), [], 'links to missing files');
    const pages = readdirSync(root + 'docs').filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    assert.deepEqual(pages.filter((p) => !targets.includes(p)), [], 'docs/ pages the README does not link');
  });

  it('and the docs/ pages link only to files and headings that exist', () => {
    const files = [README, ...readdirSync(root + 'docs').filter((f) => f.endsWith('.md')).map((f) => join(root, 'docs', f))];
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const [, target, anchor] of text.matchAll(/\]\(([^)#\s]*)(?:#([^)\s]+))?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const linked = target ? join(dirname(file), target) : file;
        if (!existsSync(linked)) broken.push(`${relative(root, file)}: ${target}`);
        else if (anchor && !anchorsOf(linked).has(anchor)) broken.push(`${relative(root, file)}: ${target}#${anchor}`);
      }
    }
    assert.deepEqual(broken, []);
  });
});
