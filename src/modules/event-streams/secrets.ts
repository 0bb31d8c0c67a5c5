// What GET shows of a webhook secret, and how to tell that shape when a client sends it back: pure, so
// the schemas, the store and the service can all use it.

/** What GET shows of a secret: its last four characters behind a mask (none of a short one). */
export function maskSecret(secret: string): string {
  const prefix = secret.startsWith('whsec_') ? 'whsec_' : '';
  return prefix + '*'.repeat(12) + (secret.length - prefix.length >= 16 ? secret.slice(-4) : '');
}

/** Whether a value sent is shaped like what {@link maskSecret} shows (a client sending a GET's answer back). */
export function looksMasked(value: string): boolean {
  return /^(whsec_)?\*{12}[^*]{0,4}$/.test(value);
}
