// The settings in effect now: each from its environment variable (or flag) when set, else as an admin
// stored it on the console's Settings page (only settings SETTINGS opts in with `editable`), else its
// default. ctx.config reads through here, so every consumer sees a change at once, without a restart;
// after each change it is a new object, so what was built from the old one (an SMTP pool, a Slack client,
// an OpenID discovery) can tell that it must be made again (notifications/deliver.ts, web-sessions/oidc.ts).
import { SETTINGS, settingsFromEnvironment, type Config, type SettingName } from './config.ts';

/** Where a setting's value in effect comes from. */
export type SettingSource = 'environment' | 'stored' | 'default';

/** The stored values of editable settings, parsed as their variables would be; read by the area that keeps them. */
export type StoredSettingsReader = () => Partial<Config>;

export class LiveConfig {
  private built: Config | undefined;
  private stored: Partial<Config> = {};
  readonly fromEnvironment: ReadonlySet<SettingName>;

  constructor(readonly base: Config, private readonly read: StoredSettingsReader | undefined) {
    this.fromEnvironment = settingsFromEnvironment(base);
  }

  /** The settings in effect: the same object until a setting changes. */
  current(): Config {
    if (!this.built) {
      this.stored = this.read?.() ?? {};
      const built: Record<string, unknown> = { ...this.base };
      for (const [key, value] of Object.entries(this.stored) as [SettingName, unknown][]) {
        // Only what SETTINGS opts in, and never over the environment: the operator's variable wins.
        if (SETTINGS[key]?.editable && !this.fromEnvironment.has(key)) built[key] = value;
      }
      this.built = built as Config;
    }
    return this.built;
  }

  /** Call after the stored settings changed (and were committed): the next `current()` reads them again. */
  reload(): void {
    this.built = undefined;
  }

  /** Where `key`'s value in effect comes from. */
  source(key: SettingName): SettingSource {
    if (this.fromEnvironment.has(key)) return 'environment';
    this.current();
    return key in this.stored && SETTINGS[key].editable ? 'stored' : 'default';
  }
}
