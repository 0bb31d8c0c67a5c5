// Operator verbs over the same stores the API uses: serve, token, migrate, version, help.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig, type Config, type Flags } from './config.ts';
import { createContext, type AppContext } from './context.ts';
import { migrate, SchemaTooNewError } from './db/migrate.ts';
import { openDatabase } from './db/open.ts';
import { AppError } from './http/errors.ts';
import { systemClock } from './lib/clock.ts';
import { createLogger } from './lib/log.ts';
import { startServer } from './server.ts';
import { actorFor, bootstrapAdmin, issueToken } from './modules/tokens/service.ts';
import { VERSION } from './version.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

interface Command {
  usage: string;
  summary: string;
  options: Options;
  run(flags: Flags, env: NodeJS.ProcessEnv): Promise<number>;
}

/** A usage mistake: printed with the command's usage, exit status 2. */
class UsageError extends Error {}

const DB_OPTIONS: Options = { db: { type: 'string' } };
const SERVER_OPTIONS: Options = { ...DB_OPTIONS, host: { type: 'string' }, port: { type: 'string' } };

/** Opens and migrates the configured database and builds the context every verb works through. */
function openContext(config: Config): AppContext {
  const db = openDatabase(config.dbFile);
  migrate(db, systemClock.now());
  return createContext({ db, clock: systemClock, config, log: createLogger(config.logLevel) });
}

const COMMANDS: Record<string, Command> = {
  serve: {
    usage: 'gatehouse serve [--db FILE] [--host HOST] [--port PORT]',
    summary: 'serve the API (creates the database and an admin token on first start)',
    options: SERVER_OPTIONS,
    async run(flags, env) {
      const config = loadConfig(env, flags);
      const ctx = openContext(config);
      const issued = bootstrapAdmin(ctx, config.bootstrapToken);
      if (issued && config.bootstrapToken === undefined) {
        process.stdout.write(
          `Created the admin user ${issued.token.user_id}. Its FULL_ACCESS API token, shown only this once:\n\n  ${issued.secret}\n\n`,
        );
      }
      const running = await startServer(ctx);
      ctx.log.info('listening', { url: running.url, db: config.dbFile, version: VERSION });
      return new Promise<number>((resolve) => {
        const stop = (signal: string) => {
          ctx.log.info('shutting down', { signal });
          void running.close().then(() => {
            ctx.db.close();
            ctx.log.info('stopped');
            resolve(0);
          });
        };
        process.once('SIGTERM', () => stop('SIGTERM'));
        process.once('SIGINT', () => stop('SIGINT'));
      });
    },
  },

  'token create': {
    usage: 'gatehouse token create --email EMAIL --label LABEL [--read-only] [--db FILE]',
    summary: 'issue an API token for an existing user and print it alone on stdout',
    options: { ...DB_OPTIONS, email: { type: 'string' }, label: { type: 'string' }, 'read-only': { type: 'boolean' } },
    async run(flags, env) {
      if (typeof flags.email !== 'string' || typeof flags.label !== 'string') throw new UsageError('--email and --label are required');
      const ctx = openContext(loadConfig(env, flags));
      try {
        const user = ctx.stores.users.getByEmail(flags.email);
        if (!user) throw new AppError('not_found', `no user has the email ${flags.email}; create one with POST /v1/users`);
        const { secret } = issueToken(ctx, actorFor(user), {
          userId: user.user_id,
          label: flags.label,
          accessLevel: flags['read-only'] ? 'READ_ONLY' : 'FULL_ACCESS',
        });
        process.stdout.write(secret + '\n');
        return 0;
      } finally {
        ctx.db.close();
      }
    },
  },

  migrate: {
    usage: 'gatehouse migrate [--db FILE]',
    summary: 'bring the database file up to this version\'s schema, then exit',
    options: DB_OPTIONS,
    async run(flags, env) {
      const config = loadConfig(env, flags);
      const db = openDatabase(config.dbFile);
      try {
        const applied = migrate(db, systemClock.now());
        process.stdout.write(applied.length ? `applied ${applied.map((m) => m.name).join(', ')}\n` : 'already up to date\n');
        return 0;
      } finally {
        db.close();
      }
    },
  },

  version: {
    usage: 'gatehouse version',
    summary: 'print the version',
    options: {},
    async run() {
      process.stdout.write(`gatehouse ${VERSION}\n`);
      return 0;
    },
  },
};

function helpText(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return [
    'usage: gatehouse <command> [options]',
    '',
    'commands:',
    ...lines,
    `  ${'help'.padEnd(width)}  show this help, or a command's with "gatehouse <command> --help"`,
    '',
    'environment: GATEHOUSE_DB, GATEHOUSE_HOST, GATEHOUSE_PORT, GATEHOUSE_BOOTSTRAP_TOKEN,',
    '             GATEHOUSE_MAX_BODY_BYTES, GATEHOUSE_LOG_LEVEL (flags win over the environment)',
    '',
  ].join('\n');
}

/** Runs one CLI invocation; returns the process exit status. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [first, second] = argv;
  if (first === undefined || first === 'help' || first === '--help' || first === '-h') {
    const topic = first === 'help' ? argv.slice(1).join(' ') : '';
    const command = COMMANDS[topic];
    process.stdout.write(command ? `usage: ${command.usage}\n\n${command.summary}\n` : helpText());
    return 0;
  }
  const twoWord = second !== undefined ? `${first} ${second}` : '';
  const name = COMMANDS[twoWord] ? twoWord : first;
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`gatehouse: unknown command "${argv.slice(0, 2).join(' ')}"\n\n${helpText()}`);
    return 2;
  }
  const rest = argv.slice(name.split(' ').length);
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      process.stdout.write(`usage: ${command.usage}\n\n${command.summary}\n`);
      return 0;
    }
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    return await command.run(values as Flags, env);
  } catch (err) {
    if (err instanceof UsageError || (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))) {
      process.stderr.write(`gatehouse ${name}: ${err.message}\nusage: ${command.usage}\n`);
      return 2;
    }
    if (err instanceof ConfigError || err instanceof SchemaTooNewError || err instanceof AppError) {
      process.stderr.write(`gatehouse ${name}: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
