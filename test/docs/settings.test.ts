// The settings are defined once (SETTINGS in src/config.ts): loading honours each definition, and
// the README's configuration table is the one made from them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ConfigError, DEFAULTS, loadConfig, SETTING_GROUPS, SETTINGS, type Setting, type SettingName } from '../../src/config.ts';
import { README, settingsTable } from '../../src/dev/settings-table.ts';

const entries = Object.entries(SETTINGS) as [SettingName, Setting<unknown>][];

describe('settings', () => {
  it('the README table is the one made from SETTINGS (run `npm run docs:settings` after changing a setting)', () => {
    const readme = readFileSync(README, 'utf8');
    assert.ok(readme.includes(settingsTable()), 'README.md settings table is stale: run `npm run docs:settings`');
  });

  it('gives every setting its default when nothing is set, and treats an empty variable as unset', () => {
    assert.deepEqual(loadConfig({}), DEFAULTS);
    assert.deepEqual(loadConfig(Object.fromEntries(entries.map(([, s]) => [s.env, '']))), DEFAULTS);
    for (const [key, setting] of entries) assert.equal(DEFAULTS[key], setting.default, key);
  });

  it('reads each variable, and each flag wins over its variable', () => {
    // A value each setting accepts and does not have as its default.
    const sample = (s: Setting<unknown>) =>
      s.example ?? (s.accepts?.startsWith('a whole number') ? '1234' : s.accepts?.startsWith('`') ? 'error' : 'x'.repeat(40));
    for (const [key, setting] of entries) {
      const raw = sample(setting);
      const expected = setting.parse(raw, setting.env);
      assert.notDeepEqual(expected, setting.default, `${setting.env}: the sample ${raw} is the default; give the setting an example`);
      // The header deadline may not exceed the request deadline: keep it low while others move. Creating
      // users through single sign-on needs allowed domains: give some while it moves.
      const env = { GATEHOUSE_HEADERS_TIMEOUT_MS: '100', GATEHOUSE_OIDC_ALLOWED_DOMAINS: 'example.net', [setting.env]: raw };
      assert.deepEqual(loadConfig(env)[key], expected, setting.env);
      if (setting.flag) {
        assert.deepEqual(loadConfig({ ...env, [setting.env]: 'ignored' }, { [setting.flag.name]: raw })[key], expected, `--${setting.flag.name}`);
      }
    }
  });

  it('gives every setting the Settings page may set a label, in a group the page has; and never the key to its secrets', () => {
    const editable = entries.filter(([, s]) => s.editable);
    assert.ok(editable.length >= 14);
    for (const [key, setting] of editable) {
      assert.ok(setting.label, `${setting.env} is editable but has no label for the page`);
      assert.ok(setting.editable! in SETTING_GROUPS, key);
    }
    for (const key of ['secretKey', 'dbFile', 'bootstrapToken', 'adminEmail'] as const) assert.equal(SETTINGS[key].editable, undefined, key);
  });

  it('refuses a value outside a setting\'s bounds, naming where it came from', () => {
    const bounded = entries.filter(([, s]) => s.accepts !== undefined);
    assert.ok(bounded.length > 5);
    for (const [, setting] of bounded) {
      assert.throws(() => loadConfig({ [setting.env]: 'bogus!' }), (err: unknown) => err instanceof ConfigError && err.message.startsWith(setting.env), setting.env);
      const flag = setting.flag?.name;
      if (flag) {
        assert.throws(() => loadConfig({}, { [flag]: 'bogus!' }), (err: unknown) => err instanceof ConfigError && err.message.startsWith(`--${flag}`));
      }
    }
    assert.throws(() => loadConfig({ GATEHOUSE_PORT: '65536' }), /GATEHOUSE_PORT must be a whole number from 0 to 65535/);
    assert.throws(() => loadConfig({}, { db: true }), /--db needs a value/);
  });
});
