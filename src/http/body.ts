// Reads a JSON request body: size cap, content type and charset, encoding, UTF-8, malformed JSON —
// each with its own error code.
import type { IncomingMessage } from 'node:http';
import { findJsonFault, TOO_DEEP } from '../lib/json-depth.ts';
import { AppError, invalidField } from './errors.ts';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;
/** Content-Encoding values that mean "as is"; Gatehouse decodes no compression. */
const IDENTITY = /^\s*(?:identity)?\s*$/i;

/**
 * An over-limit body is read and thrown away up to this many bytes before the 413 is sent, so the
 * client has finished sending and reads the answer; closing a socket with unread input makes the
 * kernel send a reset, which can destroy the answer before the client reads it. Past this bound
 * (or a declared Content-Length above it) the 413 is sent at once and the connection closed.
 */
export const drainLimit = (maxBytes: number): number => Math.max(4 * maxBytes, 8 * 1024 * 1024);

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Returns the parsed body, or undefined when the request has none.
 * Throws payload_too_large past `maxBytes` (by Content-Length or by what arrives; see drainLimit), unsupported_media_type when a body is not declared JSON, declares a charset other
 * than UTF-8 or a Content-Encoding other than identity, invalid_json when it is not UTF-8 or does not parse,
 * validation_failed naming the place where it nests deeper than MAX_JSON_DEPTH or holds a lone surrogate.
 */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  const body = Number.isFinite(declared) && declared > drainLimit(maxBytes) ? null : await readUpTo(req, maxBytes);
  if (body === null || (Number.isFinite(declared) && declared > maxBytes)) {
    throw new AppError('payload_too_large', `the request body is larger than the ${maxBytes}-byte limit`, [], { Connection: 'close' });
  }
  if (body.length === 0) return undefined;

  const type = req.headers['content-type'];
  if (!type || !JSON_TYPE.test(type)) {
    throw new AppError('unsupported_media_type', 'request bodies must be JSON, sent with Content-Type: application/json');
  }
  const charset = CHARSET.exec(type)?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    throw new AppError('unsupported_media_type', `request bodies must be UTF-8; charset=${charset} is not accepted`);
  }
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && !IDENTITY.test(encoding)) {
    throw new AppError('unsupported_media_type', `Content-Encoding ${encoding} is not accepted; send the body uncompressed`);
  }
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new AppError('invalid_json', 'the request body is not valid UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('invalid_json', 'the request body is not valid JSON');
  }
  const fault = findJsonFault(value, wellFormed);
  if (fault?.fault === 'too-deep') throw invalidField(fault.path || 'body', TOO_DEEP);
  if (fault) throw invalidField(fault.path || 'body', 'must not contain a lone surrogate (a \\ud800-\\udfff escape without its pair): it is no Unicode text');
  return value;
}

/**
 * Text holding no lone surrogate. JSON's `\ud800` escape parses into one; stored, it breaks uniqueness
 * and lookups (SQLite and UTF-8 cannot keep it), so it is refused like any invalid field.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const wellFormed = (text: string) => !LONE_SURROGATE.test(text);

/**
 * The whole body, or null when it is over `maxBytes`: then the rest is read and thrown away up to
 * drainLimit(maxBytes) (the request ends, or the bound is hit and reading stops).
 */
export function readUpTo(req: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  const limit = drainLimit(maxBytes);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else if (size > limit) settle(() => resolve(null));
    };
    const settle = (then: () => void) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      then();
    };
    const onEnd = () => settle(() => resolve(size > maxBytes ? null : Buffer.concat(chunks, size)));
    const onError = (err: Error) => settle(() => reject(err));
    // A client that went away mid-body: nobody is left to answer, but the handler must not hang.
    const onClose = () => settle(() => resolve(size > maxBytes || !req.complete ? null : Buffer.concat(chunks, size)));
    if (req.readableEnded) return resolve(Buffer.alloc(0));
    req.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  });
}
