// Token secrets: how they are made, found and compared. No SQL and no HTTP here.
import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_PREFIX = 'gth_';
/** Rows are found by this many leading characters; the hash comparison decides. */
export const LOOKUP_LENGTH = 16;

/** A new secret: the recognisable prefix and 192 random bits, base64url. */
export function newTokenSecret(): string {
  return TOKEN_PREFIX + randomBytes(24).toString('base64url');
}

export const hashSecret = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();

/** hashSecret's digest as base64 text, in one call (no Hash object): the token cache's key, per request. */
export const hashSecretKey = (secret: string): string => hash('sha256', secret, 'base64');

export const lookupOf = (secret: string): string => secret.slice(0, LOOKUP_LENGTH);

/** What events and listings show instead of the secret: its last four characters behind a mask. */
export const previewOf = (secret: string): string => '*'.repeat(12) + secret.slice(-4);

export function secretMatches(secret: string, storedHash: Buffer): boolean {
  const hash = hashSecret(secret);
  return hash.length === storedHash.length && timingSafeEqual(hash, storedHash);
}
