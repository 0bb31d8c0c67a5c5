// Operator verbs over the same stores the API uses: serve, token create/revoke, migrate, backup, check, version, help.
import fs from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, defaultText, loadConfig, SETTINGS, type Config, type Flags, type SettingName } from './config.ts';
import type { AppContext } from './context.ts';
import type { Db } from './db/open.ts';
import type { OrganizationRole } from './modules/users/roles.ts';
import type { VerifyResult } from './modules/audit/service.ts';
import type { ReplicaStatus } from './replication/litestream.ts';

// Only config.ts (for the settings `help` lists) is loaded up front. What a verb works through (the
// stores, the server, the migrations' SQL) is imported when that verb runs, so `gatehouse help` and a
// usage mistake answer without loading the whole application (issue 22: under 1 s in a checkout).
// esbuild inlines these imports into the executable's one bundle.

/** Where a CLI run writes: the process's own streams when `gatehouse` runs, strings in a test. */
export interface CliOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

const PROCESS_OUTPUT: CliOutput = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

/** What a verb is called with: its parsed flags, the environment, its arguments, and where to write. */
interface Call {
  flags: Flags;
  env: NodeJS.ProcessEnv;
  args: string[];
  out: CliOutput;
}

type Options = NonNullable<ParseArgsConfig['options']>;

interface Command {
  usage: string;
  summary: string;
  /** Shown by `--help`: one line per option, and anything else worth knowing. */
  help?: string[];
  options: Options;
  /** The names of the arguments it takes after its flags, in order (most verbs take none). */
  args?: string[];
  run(call: Call): Promise<number>;
}

/** A usage mistake: printed with the command's usage, exit status 2. */
class UsageError extends Error {}

/** The parseArgs option for a setting's flag. */
function settingOption(name: SettingName): Options {
  const flag = SETTINGS[name].flag!;
  return { [flag.name]: { type: 'string' } };
}

/** Settings are described in Markdown for the README; help is plain text. */
const plain = (markdown: string) => markdown.replaceAll('`', '');

/** The `--help` line for a setting's flag, from its definition (`description` when the verb uses it differently). */
function settingHelp(name: SettingName, description = SETTINGS[name].description): string {
  const setting = SETTINGS[name];
  const flag = setting.flag!;
  return `  ${`--${flag.name} ${flag.value}`.padEnd(17)}${plain(description)} (${setting.env}, default ${plain(defaultText(setting))})`;
}

const DB_OPTIONS: Options = settingOption('dbFile');
const SERVER_OPTIONS: Options = { ...DB_OPTIONS, ...settingOption('host'), ...settingOption('port') };
/** For the verbs that create the database (serve, migrate). */
const DB_HELP = settingHelp('dbFile');
/** For the verbs that act on a database that must already exist: they never create one. */
const EXISTING_DB_HELP = settingHelp('dbFile', 'the Gatehouse database file; it must exist (`serve` or `migrate` creates it)');

/**
 * The settings each verb reads, so a verb checks only those: a bad GATEHOUSE_PORT must not stop
 * `gatehouse check`. `serve` reads them all.
 */
const DB_SETTINGS: readonly SettingName[] = ['dbFile'];
// The key too: a verb's context reads the settings stored on the Settings page, secrets included.
const CONTEXT_SETTINGS: readonly SettingName[] = ['dbFile', 'logLevel', 'secretKey'];
const REPLICATION_SETTINGS: readonly SettingName[] = ['dbFile', 'litestreamConfig', 'litestreamBin', 'replicationMaxLagSeconds'];

const LITESTREAM_OPTIONS: Options = settingOption('litestreamConfig');
// Its flag is too long for settingHelp's column: two lines.
const LITESTREAM_HELP = [
  '  --litestream-config FILE',
  '                   the Litestream config that replicates --db (GATEHOUSE_LITESTREAM_CONFIG; docs/replication.md)',
];

/** Each replica's status from the config's Litestream, or undefined when the database is not replicated. */
async function replicasOf(config: Config, env: NodeJS.ProcessEnv): Promise<ReplicaStatus[] | undefined> {
  const { replicasOf } = await import('./replication/litestream.ts');
  return replicasOf(config, env.PATH);
}

/**
 * Runs `work` on the context of the configured database, migrated, and closes it afterwards. The file
 * must already be a Gatehouse database (these verbs act on users and tokens): a wrong --db must not
 * leave a new database, or Gatehouse's tables in someone else's file.
 */
async function withContext<T>(config: Config, work: (ctx: AppContext) => T | Promise<T>): Promise<T> {
  const [{ AREAS }, { createContext }, { migrate, recordedSchemaVersion }, { openDatabase }, { systemClock }, { createLogger }] = await Promise.all([
    import('./app.ts'),
    import('./context.ts'),
    import('./db/migrate.ts'),
    import('./db/open.ts'),
    import('./lib/clock.ts'),
    import('./lib/log.ts'),
  ]);
  if (!fs.existsSync(config.dbFile)) {
    throw new ConfigError(`there is no database at ${config.dbFile}; \`gatehouse serve\` (or \`gatehouse migrate\`) creates it`);
  }
  // Looked at as it is (no WAL switch, nothing written) before anything changes it.
  const probe = openDatabase(config.dbFile, { mustExist: true, asIs: true });
  const gatehouse = recordedSchemaVersion(probe) !== undefined;
  probe.close();
  if (!gatehouse) throw new ConfigError(`${config.dbFile} is not a Gatehouse database (it has no schema_migrations table)`);
  const db = openDatabase(config.dbFile);
  try {
    migrate(db, systemClock.now());
    return await work(createContext({ db, clock: systemClock, config, log: createLogger(config.logLevel) }, AREAS));
  } finally {
    db.close();
  }
}

/**
 * Opens an existing database file without migrating it (backup and check must not change it).
 * Read-write nonetheless: a read-only connection cannot remove the -wal/-shm files it creates,
 * and ones left behind by another user (root running `check`) would lock the service out.
 */
async function openExisting(config: Config): Promise<Db> {
  if (!fs.existsSync(config.dbFile)) throw new ConfigError(`there is no database at ${config.dbFile}`);
  const { openDatabase } = await import('./db/open.ts');
  return openDatabase(config.dbFile, { mustExist: true, asIs: true });
}

const COMMANDS: Record<string, Command> = {
  serve: {
    usage: 'gatehouse serve [--db FILE] [--host HOST] [--port PORT] [--admin-email EMAIL] [--demo]',
    summary: 'serve the API (creates the database and an admin token on first start)',
    help: [
      DB_HELP,
      settingHelp('host'),
      settingHelp('port'),
      // Its flag is too long for settingHelp's column: two lines.
      '  --admin-email EMAIL',
      `                   ${plain(SETTINGS.adminEmail.description)} (GATEHOUSE_ADMIN_EMAIL, default ${SETTINGS.adminEmail.default})`,
      '  --demo           start on an example organisation, seeded once on a file of its own (gatehouse-demo.db',
      '                   unless --db or GATEHOUSE_DB names one; never a file holding real data), with email,',
      '                   Slack and single sign-on off; prints sign-in links for a requester, a reviewer and an admin',
      '',
      'Pending migrations are applied at start. SIGTERM or SIGINT stops it cleanly: requests in',
      'flight get GATEHOUSE_SHUTDOWN_TIMEOUT_MS to finish, then the database is checkpointed and closed.',
    ],
    options: { ...SERVER_OPTIONS, ...settingOption('adminEmail'), demo: { type: 'boolean' } },
    async run({ flags, env }) {
      // Its banner and log lines go to the process's own stdout: `serve` is the process.
      const { serve } = await import('./serve.ts');
      if (!flags.demo) return serve(loadConfig(env, flags));
      const { demoConfig } = await import('./demo.ts');
      const fileNamed = typeof flags.db === 'string' || env.GATEHOUSE_DB !== undefined;
      return serve(demoConfig(loadConfig(env, flags), fileNamed), { demo: true });
    },
  },

  'token create': {
    usage: 'gatehouse token create --email EMAIL --label LABEL [--read-only | --scim] [--db FILE]',
    summary: 'issue an API token (or a SCIM token) for an existing user and print it alone on stdout',
    help: [
      '  --email EMAIL    the user the token acts as (must exist)',
      '  --label LABEL    a name for the token, shown in logs and the audit trail',
      '  --read-only      a READ_ONLY token (default FULL_ACCESS)',
      '  --scim           a SCIM token for an identity provider: it works only on /scim/v2 (docs/scim.md),',
      '                   and its user must be an ADMIN',
      EXISTING_DB_HELP,
    ],
    options: { ...DB_OPTIONS, email: { type: 'string' }, label: { type: 'string' }, 'read-only': { type: 'boolean' }, scim: { type: 'boolean' } },
    async run({ flags, env, out }) {
      const { email } = flags;
      if (typeof email !== 'string' || typeof flags.label !== 'string') throw new UsageError('--email and --label are required');
      if (flags.scim && flags['read-only']) throw new UsageError('a SCIM token writes: --scim and --read-only do not go together');
      // The label follows the API's rule for token_label (one line, 1 to 100 characters, trimmed).
      const [v, { Name }] = await Promise.all([import('valibot'), import('./http/common-schemas.ts')]);
      const label = v.safeParse(Name(100), flags.label);
      if (!label.success) throw new UsageError(`--label ${label.issues[0].message}`);
      return withContext(loadConfig(env, flags, CONTEXT_SETTINGS), async (ctx) => {
        const [{ AppError }, { actorFor, issueToken }] = await Promise.all([import('./http/errors.ts'), import('./modules/tokens/service.ts')]);
        const user = ctx.stores.users.getByEmail(email);
        if (!user) throw new AppError('not_found', `no user has the email ${email}; create one with POST /v1/users`);
        const { secret } = issueToken(ctx, actorFor(user), {
          userId: user.user_id,
          label: label.output,
          accessLevel: flags['read-only'] ? 'READ_ONLY' : 'FULL_ACCESS',
          scope: flags.scim ? 'SCIM' : 'API',
        });
        out.stdout(secret + '\n');
        return 0;
      });
    },
  },

  'login-link': {
    usage: 'gatehouse login-link --email EMAIL [--db FILE]',
    summary: 'print a one-time link that signs EMAIL in to the console (for the first admin, or teams without single sign-on)',
    help: [
      '  --email EMAIL    the user to sign in (must exist and not be offboarded)',
      EXISTING_DB_HELP,
      '',
      'Prints the URL alone on stdout. It works once, within GATEHOUSE_LOGIN_LINK_MINUTES, and is made from',
      'GATEHOUSE_PUBLIC_URL, else the address the running `serve` recorded in the database, else http://HOST:PORT.',
      'Only its hash is stored. Recorded as LOGIN_LINKS_CREATED.',
    ],
    options: { ...DB_OPTIONS, email: { type: 'string' } },
    async run({ flags, env, out }) {
      const { email } = flags;
      if (typeof email !== 'string') throw new UsageError('--email is required');
      // The link is made from the public URL (else host and port) and lasts the link lifetime.
      const settings: readonly SettingName[] = [...CONTEXT_SETTINGS, 'publicUrl', 'host', 'port', 'loginLinkMinutes'];
      return withContext(loadConfig(env, flags, settings), async (ctx) => {
        const [{ AppError }, { createLoginLink }] = await Promise.all([import('./http/errors.ts'), import('./modules/web-sessions/service.ts')]);
        const user = ctx.stores.users.getByEmail(email);
        if (!user) throw new AppError('not_found', `no user has the email ${email}; create one with POST /v1/users`);
        out.stdout(createLoginLink(ctx, user) + '\n');
        return 0;
      });
    },
  },

  'token revoke': {
    usage: 'gatehouse token revoke (--id TOKEN_ID | --label LABEL) [--db FILE]',
    summary: 'delete an API token at once (its next request gets 401)',
    help: [
      '  --id TOKEN_ID    the token\'s token_id, as GET /v1/tokens lists it',
      '  --label LABEL    the token with this label; refused when several tokens share it',
      EXISTING_DB_HELP,
    ],
    options: { ...DB_OPTIONS, id: { type: 'string' }, label: { type: 'string' } },
    async run({ flags, env, out }) {
      const { id, label } = flags;
      if ((typeof id === 'string') === (typeof label === 'string')) throw new UsageError('give exactly one of --id and --label');
      return withContext(loadConfig(env, flags, CONTEXT_SETTINGS), async (ctx) => {
        const [{ AppError }, { actorFor, revokeToken }] = await Promise.all([import('./http/errors.ts'), import('./modules/tokens/service.ts')]);
        const token = typeof id === 'string' ? ctx.stores.tokens.get(id.toLowerCase()) : await onlyTokenLabelled(ctx, label as string);
        if (!token) throw new AppError('not_found', `no token has the id ${String(id)}`);
        // The CLI acts as the token's own user, as `token create` does: the operator has no account.
        const user = ctx.stores.users.get(token.user_id);
        if (!user) throw new AppError('not_found', `the token's user ${token.user_id} no longer exists`);
        revokeToken(ctx, actorFor(user), token.token_id);
        out.stdout(`revoked token ${token.token_id} (${token.token_label})\n`);
        return 0;
      });
    },
  },

  'user set-role': {
    usage: 'gatehouse user set-role <EMAIL|USER_ID> ADMIN|MEMBER [--db FILE]',
    summary: 'make a user an organization ADMIN or a MEMBER (also how to recover when no admin can sign in)',
    help: [
      '  EMAIL|USER_ID    the user, by email or user_id',
      '  ADMIN|MEMBER     ADMIN may do everything; MEMBER may read, ask for access and review (docs/roles.md)',
      EXISTING_DB_HELP,
      '',
      'Refused when it would demote the last admin who is not offboarded. Recorded as USERS_ROLE_UPDATED,',
      'acted by the user concerned (the operator has no account), without a token.',
    ],
    options: DB_OPTIONS,
    args: ['EMAIL|USER_ID', 'ADMIN|MEMBER'],
    async run({ flags, env, args: [who, role], out }) {
      const { ORGANIZATION_ROLES } = await import('./modules/users/roles.ts');
      if (!(ORGANIZATION_ROLES as readonly string[]).includes(role!)) throw new UsageError(`the role must be ${ORGANIZATION_ROLES.join(' or ')}, not "${role}"`);
      return withContext(loadConfig(env, flags, CONTEXT_SETTINGS), async (ctx) => {
        const [{ AppError }, { isUuid }, { actorFor }, { setOrganizationRole }] = await Promise.all([
          import('./http/errors.ts'),
          import('./lib/ids.ts'),
          import('./modules/tokens/service.ts'),
          import('./modules/users/service.ts'),
        ]);
        const user = isUuid(who!) ? ctx.stores.users.get(who!.toLowerCase()) : ctx.stores.users.getByEmail(who!);
        if (!user) throw new AppError('not_found', `no user has the ${isUuid(who!) ? 'user_id' : 'email'} ${who}`);
        const before = user.organization_role;
        // The CLI acts as the user concerned, as `token create` does: the operator has no account.
        const after = setOrganizationRole(ctx, actorFor(user), user.user_id, role as OrganizationRole);
        out.stdout(
          before === after.organization_role
            ? `${after.email} is already ${before}\n`
            : `${after.email} (${after.user_id}) is now ${after.organization_role}, was ${before}\n`,
        );
        return 0;
      });
    },
  },

  'audit verify': {
    usage: 'gatehouse audit verify [--db FILE | --file EXPORT.jsonl] [--anchor SEQ:HASH]',
    summary: 'check the audit log\'s hash chain; exit 1 naming the first event altered, removed or reordered',
    help: [
      EXISTING_DB_HELP,
      '  --file FILE      check an `audit export` file instead, offline (no database needed)',
      '  --anchor SEQ:HASH  a head printed by an earlier verify: the chain must still give SEQ that hash',
      '',
      'Read-only; safe while the service runs (one read snapshot). On success prints the count and the',
      'head as SEQ:HASH: keep it somewhere else, and a later --anchor catches a log rewritten or cut short.',
    ],
    options: { ...DB_OPTIONS, file: { type: 'string' }, anchor: { type: 'string' } },
    async run({ flags, env, out }) {
      if (typeof flags.file === 'string' && typeof flags.db === 'string') throw new UsageError('give --db or --file, not both');
      const [{ AppError }, { parseAnchor, verifyDatabase, verifyExportFile }] = await Promise.all([
        import('./http/errors.ts'),
        import('./modules/audit/service.ts'),
      ]);
      const anchor = typeof flags.anchor === 'string' ? parseAnchor(flags.anchor) : undefined;
      if (typeof flags.anchor === 'string' && !anchor) throw new UsageError('--anchor must be SEQ:HASH, as verify prints the head');
      const started = process.hrtime.bigint();
      let result: VerifyResult;
      let source: string;
      if (typeof flags.file === 'string') {
        if (!fs.existsSync(flags.file)) throw new AppError('not_found', `there is no file at ${flags.file}`);
        source = flags.file;
        result = verifyExportFile(flags.file, anchor);
      } else {
        const config = loadConfig(env, flags, DB_SETTINGS);
        source = config.dbFile;
        const db = await openExisting(config);
        try {
          result = verifyDatabase(db, anchor);
        } finally {
          db.close();
        }
      }
      const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
      if (result.problem) {
        out.stdout(`FAILED: ${source}: ${result.problem.message}\n(${result.count} events before it are intact)\n`);
        return 1;
      }
      const { first, last } = result;
      const span = first && last ? ` (seq ${first.seq}–${last.seq})` : '';
      const start = !first ? '' : first.prevHash === '0'.repeat(64) ? ', from the first event' : `, anchored on previous hash ${first.prevHash}`;
      out.stdout(`ok: ${source}: ${result.count} events${span} chained intact${start}, ${ms} ms\n`);
      if (last) out.stdout(`head: ${last.seq}:${last.hash}\n`);
      return 0;
    },
  },

  'audit export': {
    usage: 'gatehouse audit export [--since DATE] [--db FILE] > export.jsonl',
    summary: 'write the audit log with its hashes as JSON Lines, verifiable offline',
    help: [
      '  --since DATE     start at the first event recorded at or after DATE (YYYY-MM-DD, a whole UTC',
      '                   day, or an ISO 8601 date-time with a zone); every later event follows',
      EXISTING_DB_HELP,
      '',
      'One event a line, in seq order, from one read snapshot. The first line\'s prev_hash ties a partial',
      'export to what came before. Check a file with `gatehouse audit verify --file FILE` (docs/audit-log.md).',
    ],
    options: { ...DB_OPTIONS, since: { type: 'string' } },
    async run({ flags, env, out }) {
      let since: string | undefined;
      if (typeof flags.since === 'string') {
        // The same reader as the API's date filters: strict, so an impossible date is refused.
        const { parseDateInput } = await import('./lib/dates.ts');
        const parsed = parseDateInput(flags.since);
        if (!parsed) throw new UsageError('--since must be a date (YYYY-MM-DD) or an ISO 8601 date-time with a time zone');
        since = parsed.at.toISOString();
      }
      const config = loadConfig(env, flags, DB_SETTINGS);
      const { exportEvents } = await import('./modules/audit/service.ts');
      const db = await openExisting(config);
      try {
        const count = exportEvents(db, since, (chunk) => out.stdout(chunk));
        out.stderr(`exported ${count} events from ${config.dbFile}\n`);
        return 0;
      } finally {
        db.close();
      }
    },
  },

  migrate: {
    usage: 'gatehouse migrate [--db FILE]',
    summary: 'bring the database file up to this version\'s schema, then exit',
    help: [DB_HELP, '', '`serve` does the same at every start; this verb lets you do it (after a backup) on its own.'],
    options: DB_OPTIONS,
    async run({ flags, env, out }) {
      const config = loadConfig(env, flags, DB_SETTINGS);
      const [{ migrate }, { openDatabase }, { systemClock }] = await Promise.all([import('./db/migrate.ts'), import('./db/open.ts'), import('./lib/clock.ts')]);
      const db = openDatabase(config.dbFile);
      try {
        const applied = migrate(db, systemClock.now());
        out.stdout(applied.length ? `applied ${applied.map((m) => m.name).join(', ')}\n` : 'already up to date\n');
        return 0;
      } finally {
        db.close();
      }
    },
  },

  backup: {
    usage: 'gatehouse backup --to FILE [--db FILE] [--with-key]',
    summary: 'copy the database, consistently, while the service keeps running',
    help: [
      '  --to FILE        where to write the copy; replaced atomically if it exists',
      EXISTING_DB_HELP,
      '  --with-key       also copy the key file that stored secrets need (<db>.key) to FILE.key',
      '',
      'Uses SQLite\'s online backup: one consistent snapshot, taken without stopping writers.',
      'The copy is checked (as `gatehouse check` does) before it replaces FILE. Restore by',
      'stopping the service and putting the copy in place of the database file.',
      'Secrets set on the Settings page are in the copy encrypted: they read only with',
      'GATEHOUSE_SECRET_KEY or the key file <db>.key, which the copy does not hold. Keep that key',
      '(apart from the backups, so a stolen backup gives no secret away), or copy it with --with-key;',
      'the backup warns when the copy holds secrets its key is not beside.',
    ],
    options: { ...DB_OPTIONS, to: { type: 'string' }, 'with-key': { type: 'boolean' } },
    async run({ flags, env, out }) {
      if (typeof flags.to !== 'string' || flags.to === '') throw new UsageError('--to FILE is required');
      const config = loadConfig(env, flags, [...DB_SETTINGS, 'secretKey']);
      const [{ backupDatabase }, { noteTheKey }] = await Promise.all([import('./db/backup.ts'), import('./modules/settings/backup-key.ts')]);
      const db = await openExisting(config);
      try {
        const started = process.hrtime.bigint();
        const result = await backupDatabase(db, flags.to);
        const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
        out.stdout(`backed up ${config.dbFile} to ${result.file}: ${result.pages} pages, ${result.bytes} bytes, ${ms} ms\n`);
        const note = noteTheKey(db, config, result.file, flags['with-key'] === true);
        for (const line of note.told) out.stdout(`${line}\n`);
        for (const line of note.warnings) out.stderr(`${line}\n`);
        return 0;
      } finally {
        db.close();
      }
    },
  },

  check: {
    usage: 'gatehouse check [--db FILE] [--litestream-config FILE]',
    summary: 'check the database file\'s integrity and foreign keys (and its replicas, if replicated); exit 1 on any problem',
    help: [
      EXISTING_DB_HELP,
      ...LITESTREAM_HELP,
      '',
      'Read-only; safe while the service runs. Runs PRAGMA integrity_check and foreign_key_check.',
      'With a Litestream config, also fails when a replica lags more than GATEHOUSE_REPLICATION_MAX_LAG_SECONDS.',
    ],
    options: { ...DB_OPTIONS, ...LITESTREAM_OPTIONS },
    async run({ flags, env, out }) {
      const config = loadConfig(env, flags, REPLICATION_SETTINGS);
      const { checkGatehouseDatabase } = await import('./db/check.ts');
      let db: Db | undefined;
      try {
        db = await openExisting(config);
        const result = checkGatehouseDatabase(db);
        const version = result.schemaVersion;
        const { ReplicationError } = await import('./replication/litestream.ts');
        for (const replica of (await replicasOf(config, env).catch((err: unknown) => {
          if (!(err instanceof ReplicationError)) throw err;
          result.problems.push(`replication: ${err.message}`);
        })) ?? []) {
          if (replica.healthy) out.stdout(`replica ${replica.summary}\n`);
          else result.problems.push(`replica ${replica.summary}`);
        }
        for (const problem of result.problems) out.stdout(problem + '\n');
        const ok = result.problems.length === 0;
        out.stdout(`${ok ? 'ok' : 'FAILED'}: ${config.dbFile} (schema version ${version ?? 'none'})\n`);
        return ok ? 0 : 1;
      } catch (err) {
        // A file damaged badly enough makes SQLite refuse to read it at all: that is a finding too.
        if (!(err instanceof Error && err.name === 'SqliteError')) throw err;
        out.stdout(`FAILED: ${config.dbFile}: ${err.message}\n`);
        return 1;
      } finally {
        db?.close();
      }
    },
  },

  'replication status': {
    usage: 'gatehouse replication status [--db FILE] [--litestream-config FILE]',
    summary: 'say how far behind each Litestream replica of the database is; exit 1 when one is unhealthy',
    help: [
      DB_HELP,
      ...LITESTREAM_HELP,
      '',
      'Runs `litestream generations` with the config. A replica is healthy when it holds the database\'s',
      'current generation and lags at most GATEHOUSE_REPLICATION_MAX_LAG_SECONDS. docs/replication.md.',
    ],
    options: { ...DB_OPTIONS, ...LITESTREAM_OPTIONS },
    async run({ flags, env, out }) {
      const config = loadConfig(env, flags, REPLICATION_SETTINGS);
      if (!config.litestreamConfig) throw new UsageError('--litestream-config FILE (or GATEHOUSE_LITESTREAM_CONFIG) is required');
      const replicas = (await replicasOf(config, env))!;
      for (const replica of replicas) out.stdout(`${replica.healthy ? 'ok' : 'UNHEALTHY'}: replica ${replica.summary}\n`);
      return replicas.every((r) => r.healthy) ? 0 : 1;
    },
  },

  restore: {
    usage: 'gatehouse restore (--from REPLICA_URL | --litestream-config FILE) [--to FILE] [--db FILE] [--timestamp TIME]',
    summary: 'restore a Litestream replica into a new database file, checked before it is put in place',
    help: [
      '  --from URL       the replica: file:///path, sftp://user@host/path, s3://bucket/path…',
      ...LITESTREAM_HELP,
      '                   (restores the replica of --db that the config lists)',
      '  --to FILE        where to write the database (default: --db); it must not exist',
      DB_HELP,
      '  --timestamp TIME the state at this RFC 3339 time instead of the latest',
      '',
      'Runs `litestream restore`, then checks the copy as `check` and `audit verify` do; only a copy',
      'that passes is renamed to FILE. Then `gatehouse serve` (under Litestream) takes over. docs/replication.md.',
    ],
    options: { ...DB_OPTIONS, ...LITESTREAM_OPTIONS, from: { type: 'string' }, to: { type: 'string' }, timestamp: { type: 'string' } },
    async run({ flags, env, out }) {
      const config = loadConfig(env, flags, REPLICATION_SETTINGS);
      const from = typeof flags.from === 'string' && flags.from !== '' ? flags.from : undefined;
      // --from and a config from the environment may well meet: the flag names the replica.
      if (from && typeof flags['litestream-config'] === 'string') throw new UsageError('give --from or --litestream-config, not both');
      if (!from && !config.litestreamConfig) throw new UsageError('--from REPLICA_URL or --litestream-config FILE is required');
      if (typeof flags.timestamp === 'string' && Number.isNaN(Date.parse(flags.timestamp))) throw new UsageError('--timestamp must be an RFC 3339 time');
      const target = typeof flags.to === 'string' && flags.to !== '' ? flags.to : config.dbFile;
      const { litestreamBinary, restoreReplica } = await import('./replication/litestream.ts');
      const started = process.hrtime.bigint();
      const result = await restoreReplica(
        litestreamBinary({ setting: config.litestreamBin, searchPath: env.PATH }),
        {
          ...(from ? { url: from } : { config: config.litestreamConfig, dbFile: config.dbFile }),
          ...(typeof flags.timestamp === 'string' ? { timestamp: flags.timestamp } : {}),
        },
        target,
      );
      const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
      out.stdout(
        `restored ${from ?? `${config.dbFile} (${config.litestreamConfig})`} to ${result.file}: schema version ${result.schemaVersion}, ` +
          `${result.bytes} bytes, ${result.events} audit events intact (head ${result.head ?? 'none'}), ${ms} ms\n`,
      );
      return 0;
    },
  },

  version: {
    usage: 'gatehouse version',
    summary: 'print the version and the newest schema version it knows',
    options: {},
    async run({ out }) {
      const [{ VERSION }, { MIGRATIONS }] = await Promise.all([import('./version.ts'), import('./db/migrations.ts')]);
      out.stdout(`gatehouse ${VERSION} (schema ${MIGRATIONS.at(-1)?.version ?? 0}, node ${process.version})\n`);
      return 0;
    },
  },
};

/** The one token with `label`; throws when none or several have it (then the ids are listed). */
async function onlyTokenLabelled(ctx: AppContext, label: string) {
  const { AppError } = await import('./http/errors.ts');
  const found = ctx.stores.tokens.findByLabel(label);
  if (found.length === 0) throw new AppError('not_found', `no token has the label "${label}"`);
  if (found.length > 1) {
    throw new AppError('conflict', `${found.length} tokens have the label "${label}"; revoke one by --id: ${found.map((t) => t.token_id).join(', ')}`);
  }
  return found[0];
}

function commandHelp(command: Command): string {
  return [`usage: ${command.usage}`, '', command.summary, ...(command.help ? ['', ...command.help] : []), ''].join('\n');
}

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
    'environment (flags win over it):',
    ...Object.values(SETTINGS).flatMap((s) => [
      `  ${s.env}${s.flag ? ` (--${s.flag.name})` : ''}  default ${plain(defaultText(s))}${s.accepts ? `; ${plain(s.accepts)}` : ''}`,
      `      ${plain(s.description)}`,
    ]),
    '',
  ].join('\n');
}

/** Help for a command group like `token`: its subcommands. */
function groupHelp(group: string): string | undefined {
  const members = Object.entries(COMMANDS).filter(([name]) => name.startsWith(`${group} `));
  if (members.length === 0) return undefined;
  return [`usage: gatehouse ${group} <command> [options]`, '', ...members.map(([name, c]) => `  ${name.padEnd(14)}  ${c.summary}`), ''].join('\n');
}

/**
 * One line for what the operator can act on: an error from SQLite or the file system (it carries a
 * code: "unable to open database file", EISDIR…) is its message alone; anything else is a bug, and
 * its stack is worth printing.
 */
function describeFailure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && /^(SQLITE_|E[A-Z])/.test(code)) return `${err.message.replace(/^gatehouse: /, '')} (${code})`;
  return err.stack ?? err.message;
}

/**
 * Runs one CLI invocation, as `gatehouse` does, and returns the process exit status; never throws.
 * Everything it prints goes to `out` (the process's streams unless given), so a test can call it
 * in process and read what the operator would see. A failure nothing below expected is one line
 * on stderr and status 1.
 */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv, out: CliOutput = PROCESS_OUTPUT): Promise<number> {
  try {
    return await dispatch(argv, env, out);
  } catch (err) {
    out.stderr(`gatehouse: ${describeFailure(err)}\n`);
    return 1;
  }
}

async function dispatch(argv: string[], env: NodeJS.ProcessEnv, out: CliOutput): Promise<number> {
  const [first, second] = argv;
  if (first === undefined || first === 'help' || first === '--help' || first === '-h') {
    const topic = first === 'help' ? argv.slice(1).join(' ') : '';
    const command = COMMANDS[topic];
    const help = command ? commandHelp(command) : topic === '' ? helpText() : groupHelp(topic);
    if (help === undefined) {
      out.stderr(`gatehouse help: there is no command "${topic}"\n\n${helpText()}`);
      return 2;
    }
    out.stdout(help);
    return 0;
  }
  const twoWord = second !== undefined ? `${first} ${second}` : '';
  const name = COMMANDS[twoWord] ? twoWord : first;
  const command = COMMANDS[name];
  if (!command) {
    const group = groupHelp(first);
    if (group && (second === '--help' || second === '-h')) {
      out.stdout(group);
      return 0;
    }
    const problem = !group ? `unknown command "${first}"` : second === undefined ? `${first}: which one?` : `unknown command "${first} ${second}"`;
    out.stderr(`gatehouse: ${problem}\n\n${group ?? helpText()}`);
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
      out.stdout(commandHelp(command));
      return 0;
    }
    const wanted = command.args ?? [];
    if (positionals.length > wanted.length) throw new UsageError(`unexpected argument "${positionals[wanted.length]}"`);
    if (positionals.length < wanted.length) throw new UsageError(`${wanted[positionals.length]} is required`);
    return await command.run({ flags: values as Flags, env, args: positionals, out });
  } catch (err) {
    if (err instanceof UsageError || (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))) {
      out.stderr(`gatehouse ${name}: ${err.message}\nusage: ${command.usage}\n`);
      return 2;
    }
    if (await isOperatorError(err)) {
      out.stderr(`gatehouse ${name}: ${(err as Error).message}\n`);
      return 1;
    }
    throw err;
  }
}

/** A refusal the operator can act on (bad setting, newer schema, not found, backup target, replica), told in one line. */
async function isOperatorError(err: unknown): Promise<boolean> {
  if (err instanceof ConfigError) return true;
  // Whichever verb threw one of these has already loaded its module; this costs nothing then.
  const [{ SchemaTooNewError }, { AppError }, { BackupError }, { ReplicationError }] = await Promise.all([
    import('./db/migrate.ts'),
    import('./http/errors.ts'),
    import('./db/backup.ts'),
    import('./replication/litestream.ts'),
  ]);
  return err instanceof SchemaTooNewError || err instanceof AppError || err instanceof BackupError || err instanceof ReplicationError;
}
