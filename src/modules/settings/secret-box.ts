// Secrets set on the Settings page, encrypted at rest: AES-256-GCM (node:crypto), keyed by
// GATEHOUSE_SECRET_KEY or else by the key file beside the database (`<database>.key`), made on first use.
// A backup of the database reads its stored secrets only with that key (docs/settings.md).
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The key that encrypts stored secrets, and where it came from. */
export interface SettingsKey {
  key: Buffer;
  /** A short fingerprint of the key, stored with each secret, so a wrong key is named as such. */
  id: string;
  source: 'environment' | 'file';
  /** The key file, when the key is one. */
  file: string | null;
}

/** Why a stored secret cannot be read: another key, or a damaged value. Never carries the secret. */
export class SecretBoxError extends Error {}

const VERSION = 'gh1';
/** The shortest key text taken (as GATEHOUSE_SECRET_KEY's own rule): 32 characters. */
const MIN_KEY_TEXT = 32;

/** The key file of a database: beside it, named after it. */
export const keyFileOf = (dbFile: string): string => `${path.resolve(dbFile)}.key`;

/** The AES key made from key text (any text of 32+ characters: a random one in the file, or the operator's). */
function derive(text: string): { key: Buffer; id: string } {
  const key = Buffer.from(hkdfSync('sha256', text, 'gatehouse', 'stored settings, aes-256-gcm', 32));
  return { key, id: createHash('sha256').update(key).digest('hex').slice(0, 12) };
}

/**
 * The key in use: GATEHOUSE_SECRET_KEY when set, else the database's key file. With `create`, a missing file
 * is made (32 random bytes, readable by its owner only); without, a missing file gives undefined.
 * Throws SecretBoxError for a key file too short to be one.
 */
export function settingsKey(settings: { secretKey: string | undefined; dbFile: string }, create: boolean): SettingsKey | undefined {
  if (settings.secretKey !== undefined) return { ...derive(settings.secretKey), source: 'environment', file: null };
  const file = keyFileOf(settings.dbFile);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !create) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new SecretBoxError(`cannot read the key file ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    text = randomBytes(32).toString('base64url');
    try {
      // `wx`: two processes making it at once keep the first one's.
      fs.writeFileSync(file, `${text}\n`, { mode: 0o600, flag: 'wx' });
    } catch (writeErr) {
      if ((writeErr as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new SecretBoxError(`cannot make the key file ${file}: ${(writeErr as NodeJS.ErrnoException).code ?? 'error'}`);
      }
      text = fs.readFileSync(file, 'utf8').trim();
    }
  }
  if (text.length < MIN_KEY_TEXT) throw new SecretBoxError(`the key file ${file} holds no key (fewer than ${MIN_KEY_TEXT} characters)`);
  return { ...derive(text), source: 'file', file };
}

/** `plaintext` sealed for the setting `name` (bound to it: a value moved to another setting does not open). */
export function seal(key: SettingsKey, name: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(Buffer.from(name, 'utf8'));
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, key.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

/** Opens what `seal` made for `name`; throws SecretBoxError when the key is another or the value damaged. */
export function open(key: SettingsKey, name: string, envelope: string): string {
  const [version, id, iv, tag, sealed, ...rest] = envelope.split('.');
  if (version !== VERSION || !id || !iv || !tag || sealed === undefined || rest.length > 0) throw new SecretBoxError('the stored value is damaged');
  if (id !== key.id) throw new SecretBoxError(`it was encrypted with another key (key ${id}; the key in use is ${key.id})`);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(name, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError('the stored value is damaged (it does not authenticate)');
  }
}
