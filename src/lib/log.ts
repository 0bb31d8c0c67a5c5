// Structured logging: one JSON object per line on stdout (errors on stderr). Never give it a token.

export type LogFields = Record<string, unknown>;

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

export function createLogger(level: 'info' | 'error' | 'silent'): Logger {
  const write = (stream: NodeJS.WriteStream, lvl: string, msg: string, fields?: LogFields) =>
    stream.write(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields }) + '\n');
  return {
    info: (msg, fields) => {
      if (level === 'info') write(process.stdout, 'info', msg, fields);
    },
    error: (msg, fields) => {
      if (level !== 'silent') write(process.stderr, 'error', msg, fields);
    },
  };
}
