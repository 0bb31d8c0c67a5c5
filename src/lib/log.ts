// Structured logging: one JSON object per line on stdout (errors on stderr). Never give it a token.

export type LogFields = Record<string, unknown>;

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /**
   * The line every answered request writes: info `request` with these fields, in this order. Its own
   * method, so the hot path builds the line's text with no fields object (docs/performance.md).
   */
  request(method: string, path: string, status: number, durationMs: number, requestId: string, ip: string, tokenLabel: string | null): void;
}

/** Now as an ISO string, made once per millisecond however many lines are written in it. */
let isoMs = -1;
let isoText = '';
function isoNow(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    isoText = new Date(ms).toISOString();
  }
  return isoText;
}

/** Info lines waiting for their write, per logger; written at the end of the event loop's turn, or at exit. */
const UNWRITTEN = new Set<{ flush(): void }>();
let flushAtExit = false;

/**
 * Info lines (one per request) are gathered and written to stdout once per turn of the event loop:
 * a synchronous write per line cost ~4% of a request's time at 32 connections. An error line writes
 * what is gathered first, then itself at once, so the order of lines holds.
 */
export function createLogger(level: 'info' | 'error' | 'silent'): Logger {
  let pending = '';
  const buffer = {
    flush() {
      if (pending === '') return;
      const text = pending;
      pending = '';
      UNWRITTEN.delete(buffer);
      process.stdout.write(text);
    },
  };
  if (!flushAtExit) {
    flushAtExit = true;
    process.once('exit', () => {
      for (const each of UNWRITTEN) each.flush();
    });
  }
  const line = (lvl: string, msg: string, fields?: LogFields) => JSON.stringify({ time: isoNow(), level: lvl, msg, ...fields }) + '\n';
  const gather = (text: string) => {
    if (pending === '') {
      UNWRITTEN.add(buffer);
      setImmediate(buffer.flush);
    }
    pending += text;
  };
  const text = JSON.stringify;
  return {
    info: (msg, fields) => {
      if (level !== 'info') return;
      gather(line('info', msg, fields));
    },
    request: (method, path, status, durationMs, requestId, ip, tokenLabel) => {
      if (level !== 'info') return;
      // The very text line('info', 'request', {…}) gives, without the fields object or its copy.
      gather(`{"time":"${isoNow()}","level":"info","msg":"request","method":${text(method)},"path":${text(path)},"status":${status},`
        + `"duration_ms":${Number.isFinite(durationMs) ? durationMs : 'null'},"request_id":${text(requestId)},"ip":${text(ip)},`
        + `"token_label":${tokenLabel === null ? 'null' : text(tokenLabel)}}\n`);
    },
    error: (msg, fields) => {
      if (level === 'silent') return;
      buffer.flush();
      process.stderr.write(line('error', msg, fields));
    },
  };
}
