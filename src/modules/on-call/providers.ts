// The adapter of each on-call provider, by table: one line per provider (a third, such as incident.io or
// Rootly, is one more entry and its file). A provider named in ON_CALL_PROVIDER_NAMES without an adapter
// stops the app at start. Also: the endpoint an adapter is called at, built from its settings.
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { SETTINGS } from '../../config.ts';
import { opsgenieAdapter } from './opsgenie.ts';
import { pagerDutyAdapter } from './pagerduty.ts';
import { ON_CALL_PROVIDER_NAMES, type OnCallAdapter, type OnCallProvider, type ProviderCall } from './provider.ts';
import { addressPolicy } from '../../http/outbound.ts';

export const ON_CALL_ADAPTERS: Readonly<Record<OnCallProvider, OnCallAdapter>> = {
  OPSGENIE: opsgenieAdapter,
  PAGER_DUTY: pagerDutyAdapter,
};

/** Bounds of every call to a provider: an answer within 10 s, at most 4 MiB, at most 20 calls (pages) per schedule and sync. */
export const CALL_TIMEOUT_MS = 10_000;
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
export const MAX_CALLS = 20;

/** Throws, naming them, for providers `adapters` has no adapter for (the on-call area's start-up check). */
export function checkOnCallAdapters(adapters: Partial<Record<OnCallProvider, OnCallAdapter>> = ON_CALL_ADAPTERS): void {
  const missing = ON_CALL_PROVIDER_NAMES.filter((name) => adapters[name] === undefined);
  if (missing.length > 0) throw new Error(`on-call provider ${missing.join(', ')} has no adapter (ON_CALL_ADAPTERS in src/modules/on-call/providers.ts)`);
}

/** The environment variable of a Config key (for messages naming the setting to set). */
const envOf = (key: string): string => (SETTINGS as Record<string, { env: string }>)[key]?.env ?? key;

/** validation_failed naming `path` and the provider's credential setting, which the provider refused (401/403). */
export function credentialRefused(provider: OnCallProvider, path = 'third_party_provider'): AppError {
  const adapter = ON_CALL_ADAPTERS[provider];
  const setting = envOf(adapter.settings.credential);
  return new AppError('validation_failed', `${adapter.label} refused the credential in ${setting}: check the setting`, [
    { path, message: `${adapter.label} refused the credential (${setting})` },
  ]);
}

/** Whether the provider's credential is set. */
export function providerReady(ctx: AppContext, provider: OnCallProvider): boolean {
  const credential = ctx.config[ON_CALL_ADAPTERS[provider].settings.credential];
  return typeof credential === 'string' && credential !== '';
}

/**
 * How to call `provider` now, from its settings; throws validation_failed naming `path` and the setting
 * when its credential is not set.
 */
export function providerCall(ctx: AppContext, provider: OnCallProvider, path = 'third_party_provider', stop?: AbortSignal): ProviderCall {
  const adapter = ON_CALL_ADAPTERS[provider];
  const credential = ctx.config[adapter.settings.credential];
  if (typeof credential !== 'string' || credential === '') {
    const setting = envOf(adapter.settings.credential);
    throw new AppError('validation_failed', `${adapter.label} is not set up: set ${setting}`, [{ path, message: `${adapter.label} is not set up (${setting} is unset)` }]);
  }
  return {
    endpoint: {
      baseUrl: String(ctx.config[adapter.settings.url]),
      headers: adapter.headers(credential),
      timeoutMs: CALL_TIMEOUT_MS,
      maxAnswerBytes: MAX_ANSWER_BYTES,
      addresses: addressPolicy(ctx.config),
    },
    maxCalls: MAX_CALLS,
    ...(stop && { stop }),
  };
}
