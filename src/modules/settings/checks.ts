// The Settings page's *Send a test* and *Check* buttons: a test email to the admin through the SMTP server
// in effect, a Slack message through the bot token in effect, a discovery of the OpenID provider in effect.
// Each is a network call outside any transaction, then SETTINGS_TESTED with its outcome in a short one.
import type { AppContext } from '../../context.ts';
import { publicBase } from '../../http/public-base.ts';
import type { Caller } from '../../http/types.ts';
import type { Actor } from '../events/store.ts';
import { channelsOf } from '../notifications/deliver.ts';
import { ProviderFailure, ON_CALL_PROVIDER_NAMES } from '../on-call/provider.ts';
import { ON_CALL_ADAPTERS, providerCall, providerReady } from '../on-call/providers.ts';
import { checkOidcProvider } from '../web-sessions/oidc.ts';

export interface SettingsTestResult {
  ok: boolean;
  /** What happened, for people; never a secret. */
  message: string;
}

function recorded(ctx: AppContext, actor: Actor, group: string, result: SettingsTestResult): SettingsTestResult {
  ctx.db.transaction(() => {
    ctx.stores.events.record(actor, 'SETTINGS_TESTED', [{ sub_event_type: 'SETTINGS_TESTED', group, ok: result.ok, message: result.message }]);
  }).immediate();
  return result;
}

/** Sends a test email to the caller through the SMTP server in effect; records SETTINGS_TESTED. */
export async function sendTestEmail(ctx: AppContext, caller: Caller): Promise<SettingsTestResult> {
  const email = channelsOf(ctx).email;
  if (!email) return recorded(ctx, caller, 'email', { ok: false, message: 'email is not set up: set the SMTP server URL' });
  const base = publicBase(ctx);
  const text = `This is a test email from Gatehouse at ${base}, sent by ${caller.name} from the Settings page. ` +
    'Notifications and sign-in links will reach people this way.';
  const sent = await email.send({
    to: { name: caller.name, address: caller.email },
    subject: 'Gatehouse test email',
    text,
    html: `<p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`,
  });
  return recorded(ctx, caller, 'email', sent.ok
    ? { ok: true, message: `sent to ${caller.email} through ${ctx.config.smtpUrl!.replace(/\/\/[^@/]*@/, '//')}` }
    : { ok: false, message: `not sent: ${sent.error}` });
}

/**
 * Posts a test message to `channel` (a Slack channel id or name) or, without one, to the caller as a direct
 * message found by their email, through the bot token in effect; records SETTINGS_TESTED.
 */
export async function sendTestSlackMessage(ctx: AppContext, caller: Caller, channel: string | undefined): Promise<SettingsTestResult> {
  const slack = channelsOf(ctx).slack;
  if (!slack) return recorded(ctx, caller, 'slack', { ok: false, message: 'Slack is not set up: set the bot token' });
  let target = channel;
  if (target === undefined) {
    const found = await slack.userIdByEmail(caller.email);
    if (!found.ok) return recorded(ctx, caller, 'slack', { ok: false, message: `Slack does not know ${caller.email}: ${found.error}` });
    target = found.userId;
  }
  const text = `Gatehouse test message: Slack is set up (sent by ${caller.name} from the Settings page).`;
  const posted = await slack.post(target, { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });
  return recorded(ctx, caller, 'slack', posted.ok
    ? { ok: true, message: channel === undefined ? `sent to you (${caller.email}) as a direct message` : `sent to ${channel}` }
    : { ok: false, message: `not sent: ${posted.error}` });
}

/** Reads the OpenID provider's discovery document for the settings in effect; records SETTINGS_TESTED. */
export async function checkSingleSignOn(ctx: AppContext, caller: Caller): Promise<SettingsTestResult> {
  return recorded(ctx, caller, 'single_sign_on', await checkOidcProvider(ctx, publicBase(ctx)));
}

/** A schedule id no provider has: asking for it tells whether the provider takes the key (404) or refuses it (401/403). */
const NO_SUCH_SCHEDULE = 'gatehouse-settings-check';

/**
 * Calls each on-call provider whose key is set, asking for a schedule that does not exist: "not found"
 * means the provider took the key. Records SETTINGS_TESTED; ok when at least one is set and every one set works.
 */
export async function checkOnCallProviders(ctx: AppContext, caller: Caller): Promise<SettingsTestResult> {
  const set = ON_CALL_PROVIDER_NAMES.filter((provider) => providerReady(ctx, provider));
  if (set.length === 0) return recorded(ctx, caller, 'on_call', { ok: false, message: 'no on-call provider is set up: set the PagerDuty or the Opsgenie API key' });
  const outcomes = await Promise.all(set.map(async (provider) => {
    const adapter = ON_CALL_ADAPTERS[provider];
    try {
      await adapter.schedule(providerCall(ctx, provider), NO_SUCH_SCHEDULE);
      return { ok: true, words: `${adapter.label} took the API key at ${String(ctx.config[adapter.settings.url])}` };
    } catch (err) {
      if (!(err instanceof ProviderFailure)) throw err;
      return { ok: false, words: err.message };
    }
  }));
  return recorded(ctx, caller, 'on_call', { ok: outcomes.every((o) => o.ok), message: outcomes.map((o) => o.words).join('; ') });
}
