// Opaque, signed keyset cursors. A cursor names the list it belongs to and the key of the last row
// served; the HMAC makes any edit detectable, so a tampered or foreign cursor is refused, never guessed at.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The position after which the next page starts: a row's sequence number, optionally led by a sort value. */
export type CursorKey = number | [string, number];

export interface CursorCodec {
  encode(list: string, key: CursorKey): string;
  /** Returns the key, or null when the cursor is malformed, forged or from another list. */
  decode(list: string, cursor: string): CursorKey | null;
}

const SIGNATURE_BYTES = 12;

export function createCursorCodec(secret: string): CursorCodec {
  const sign = (payload: string) =>
    createHmac('sha256', secret).update(payload).digest().subarray(0, SIGNATURE_BYTES);

  return {
    encode(list, key) {
      const payload = Buffer.from(JSON.stringify({ l: list, k: key })).toString('base64url');
      return `${payload}.${sign(payload).toString('base64url')}`;
    },
    decode(list, cursor) {
      const dot = cursor.indexOf('.');
      if (dot <= 0 || cursor.length > 1024) return null;
      const payload = cursor.slice(0, dot);
      const given = Buffer.from(cursor.slice(dot + 1), 'base64url');
      if (given.length !== SIGNATURE_BYTES || !timingSafeEqual(given, sign(payload))) return null;
      try {
        const parsed: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
        if (typeof parsed !== 'object' || parsed === null) return null;
        const { l, k } = parsed as { l?: unknown; k?: unknown };
        if (l !== list) return null;
        if (Number.isSafeInteger(k)) return k as number;
        if (Array.isArray(k) && k.length === 2 && typeof k[0] === 'string' && Number.isSafeInteger(k[1])) {
          return [k[0], k[1] as number];
        }
        return null;
      } catch {
        return null;
      }
    },
  };
}
