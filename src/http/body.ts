// Reads a JSON request body: size cap, content type, malformed JSON — each with its own error code.
import type { IncomingMessage } from 'node:http';
import { AppError } from './errors.ts';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Returns the parsed body, or undefined when the request has none.
 * Throws payload_too_large past `maxBytes` (checked against Content-Length before reading, and again
 * while reading), unsupported_media_type when a body is not declared JSON, invalid_json when it does not parse.
 */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);

  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  if (size === 0) return undefined;

  const type = req.headers['content-type'];
  if (!type || !JSON_TYPE.test(type)) {
    throw new AppError('unsupported_media_type', 'request bodies must be JSON, sent with Content-Type: application/json');
  }
  try {
    return JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
  } catch {
    throw new AppError('invalid_json', 'the request body is not valid JSON');
  }
}

function tooLarge(maxBytes: number): AppError {
  return new AppError('payload_too_large', `the request body is larger than the ${maxBytes}-byte limit`, [], {
    Connection: 'close',
  });
}
