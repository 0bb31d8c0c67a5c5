// Who listens to what is visible: docs/contributing.md holds the table made from the areas' declarations
// (signals announced and heard, access-change listeners, outbox kinds), and it is the current one.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { AREAS } from '../../src/areas.ts';
import { CONTRIBUTING, listenersTable } from '../../src/dev/listeners-table.ts';

describe('the listeners table', () => {
  it('is the one made from the areas (run `npm run docs:listeners` after a listener, signal or outbox kind changes)', () => {
    assert.ok(readFileSync(CONTRIBUTING, 'utf8').includes(listenersTable()), 'docs/contributing.md listeners table is stale: run `npm run docs:listeners`');
  });

  it('names every signal heard and every outbox kind run, with its area', () => {
    const table = listenersTable();
    for (const area of AREAS) {
      for (const name of Object.keys(area.signals ?? {})) assert.match(table, new RegExp(`\\| \`${name}\` \\| [^|]+ \\| [^|]*\`${area.name}\``), `${area.name} hears ${name}`);
      for (const kind of Object.keys(area.outbox ?? {})) assert.ok(table.includes(`| \`${kind}\` | \`${area.name}\` |`), `${area.name} runs ${kind}`);
    }
    // A made-up area's declarations show up, and one announcing nothing is heard by no one.
    const made = listenersTable([{ name: 'widgets', signals: { 'requests.decided': () => undefined }, outbox: { 'widgets.ship': { run: async () => undefined } as never }, onAccessChange: () => undefined }]);
    assert.match(made, /\| `requests\.decided` \| `requests` \| `widgets` \|/);
    assert.match(made, /\| `widgets\.ship` \| `widgets` \|/);
    assert.match(made, /\| `widgets` \|\n/);
  });
});
