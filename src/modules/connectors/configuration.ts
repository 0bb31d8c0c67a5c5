// A connector's configuration as its kind declares it (adapter.ts): masked for every answer and event from
// the kind's list of secrets, and a PUT's fields merged with what is stored (a mask sent back keeps the secret).
import { invalidField } from '../../http/errors.ts';
import { parse } from '../../http/parse.ts';
import { looksMasked, maskSecret } from '../event-streams/secrets.ts';
import type { ConnectorKind, SecretMask } from './adapter.ts';
import { carriesMask, maskUrl } from './url-secrets.ts';

const MASKS: Record<SecretMask, (value: string) => string> = { secret: maskSecret, url: maskUrl };

/** Whether `value` carries a mask as `mask` writes it (so it cannot be a new secret). */
const MASKED: Record<SecretMask, (value: string) => boolean> = { secret: looksMasked, url: carriesMask };

const secretsOf = (kind: ConnectorKind) => Object.entries(kind.secrets) as [string, SecretMask][];

/** `configuration` with each of the kind's secret fields masked: what GET, PUT's answer and the audit trail show. */
export function maskConfiguration(kind: ConnectorKind, configuration: Record<string, unknown>): Record<string, unknown> {
  const shown = { ...configuration };
  for (const [field, mask] of secretsOf(kind)) {
    const value = shown[field];
    if (typeof value === 'string') shown[field] = MASKS[mask](value);
  }
  return shown;
}

/**
 * The configuration a PUT sets: the kind's fields from `sent` (null or absent: the stored value, if any),
 * a secret sent exactly as GET masks the stored one being the stored one. Checked by the kind's schema
 * (validation_failed naming the field); a secret carrying a mask that is not this connector's is refused.
 * `stored` is the connector's configuration when it is of the same kind, else undefined.
 */
export function mergeConfiguration(kind: ConnectorKind, sent: Record<string, unknown>, stored: Record<string, unknown> | undefined): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const field of Object.keys(kind.configuration.entries)) {
    const value = sent[field] ?? stored?.[field];
    if (value !== undefined && value !== null) merged[field] = value;
  }
  for (const [field, mask] of secretsOf(kind)) {
    const value = merged[field];
    const old = stored?.[field];
    if (typeof old === 'string' && value === MASKS[mask](old)) merged[field] = old;
  }
  const configuration = parse(kind.configuration, merged) as Record<string, unknown>;
  for (const [field, mask] of secretsOf(kind)) {
    const value = configuration[field];
    if (typeof value === 'string' && value !== stored?.[field] && MASKED[mask](value)) {
      throw invalidField(field, 'carries a masked value that is not this connector\'s; send the value itself');
    }
  }
  return configuration;
}

/** Whether a secret changed between two configurations of one kind (the audit event says so, never what). */
export function secretChanged(kind: ConnectorKind, before: Record<string, unknown> | undefined, after: Record<string, unknown>): boolean {
  return secretsOf(kind).some(([field]) => before?.[field] !== after[field]);
}
