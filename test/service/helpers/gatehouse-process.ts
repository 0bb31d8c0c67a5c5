// Runs Gatehouse as a real child process — the executable build.mjs makes from these sources, or the
// sources themselves through tsx — and reads what it prints: the admin token banner, and the JSON log lines.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PATIENCE_MS, until } from '../../helpers/wait.ts';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** `node … src/main.ts`: the CLI from the sources, as `npm run gatehouse` runs it, from any directory. */
export const FROM_SOURCES: readonly string[] = [
  process.execPath,
  '--import', import.meta.resolve('tsx'),
  '--import', new URL('../../../src/dev/register-sql.mjs', import.meta.url).href,
  fileURLToPath(new URL('../../../src/main.ts', import.meta.url)),
];

/** How long the executable's build may take before a test waiting for it fails (bundling and injecting take seconds quietly). */
const BUILD_PATIENCE_MS = 20 * 60_000;

let building: Promise<string> | undefined;
/**
 * The single executable `node build.mjs` makes from these sources: the product as it ships (the bundles
 * of src/main.ts and the read worker, the console, the SQLite addon, the pinned runtime). A spawned
 * `serve` or verb runs it by default: it answers after about 0.15 s of CPU, where the sources through
 * tsx take about 0.85 s (docs/contributing.md, "Tests"). test/run.mjs builds it once per run, beside
 * the first test files, and names it in GATEHOUSE_TEST_EXECUTABLE: this waits for that build to end
 * (`<file>.failed` holds its output if it failed). Without the variable (a file run by `node --test`
 * alone) the process builds its own, once, into a temp dir.
 */
export function gatehouseExecutable(): Promise<string> {
  building ??= (async () => {
    const named = process.env.GATEHOUSE_TEST_EXECUTABLE;
    if (named) {
      await until(() => existsSync(named) || existsSync(`${named}.failed`), `the executable's build (test/run.mjs) into ${named}`, BUILD_PATIENCE_MS);
      if (!existsSync(named)) throw new Error(`node build.mjs failed:\n${readFileSync(`${named}.failed`, 'utf8')}`);
      return named;
    }
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-exe-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    const out = join(dir, 'gatehouse');
    const build = await runGatehouse(['--out', out], { command: [process.execPath, join(ROOT, 'build.mjs')] });
    if (build.code !== 0) throw new Error(`node build.mjs failed (${build.code ?? build.signal}):\n${build.stdout}\n${build.stderr}`);
    return out;
  })();
  return building;
}

export interface RunOptions {
  /**
   * The command before the CLI arguments: the built executable unless given (gatehouseExecutable(); e.g.
   * FROM_SOURCES, or ['./gatehouse'] in a directory of its own).
   */
  command?: readonly string[];
  cwd?: string;
  /** The child's whole environment (nothing is inherited when given); the parent's otherwise. */
  env?: NodeJS.ProcessEnv;
  /** Wraps the whole command line, e.g. in `litestream replicate -exec "…"`. */
  wrap?: (argv: readonly string[]) => readonly string[];
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

async function start(args: readonly string[], options: RunOptions): Promise<ChildProcess> {
  const argv = [...(options.command ?? [await gatehouseExecutable()]), ...args];
  const [cmd, ...rest] = options.wrap ? options.wrap(argv) : argv;
  return spawn(cmd!, rest, {
    cwd: options.cwd ?? ROOT,
    env: options.env ?? { ...process.env, GATEHOUSE_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs a CLI verb to completion. */
export async function runGatehouse(args: readonly string[], options: RunOptions = {}): Promise<Finished> {
  const child = await start(args, options);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  return { code, signal, stdout, stderr };
}

export interface LogRecord {
  level: string;
  msg: string;
  [field: string]: unknown;
}

/** A running `gatehouse serve`. */
export class ServiceProcess {
  readonly logs: LogRecord[] = [];
  stdout = '';
  stderr = '';
  /** Base URL of the API (…/v1), known once the `listening` line was printed. */
  url = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private waiters: { test: (r: LogRecord) => boolean; resolve: (r: LogRecord) => void }[] = [];

  private constructor(readonly child: ChildProcess) {
    let partial = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk;
      partial += chunk;
      const lines = partial.split('\n');
      partial = lines.pop()!;
      for (const line of lines) this.take(line);
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }) as { code: number | null; signal: NodeJS.Signals | null });
  }

  /**
   * Starts `serve` with `args` and resolves once it listens (its `listening` line needs
   * GATEHOUSE_LOG_LEVEL=info); rejects if it exits first or is not listening within PATIENCE_MS
   * (a second when quiet, tens of seconds on a loaded machine), so a broken start fails the test
   * instead of hanging the suite.
   */
  static async start(args: readonly string[], options: RunOptions = {}): Promise<ServiceProcess> {
    const service = new ServiceProcess(await start(['serve', ...args], options));
    let timer: NodeJS.Timeout | undefined;
    try {
      const listening = await Promise.race([
        service.waitFor((r) => r.msg === 'listening'),
        service.exited.then(({ code, signal }) => {
          throw new Error(`gatehouse serve exited (${code ?? signal}) before listening:\n${service.stdout}\n${service.stderr}`);
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`gatehouse serve did not listen within ${PATIENCE_MS} ms:\n${service.stdout}\n${service.stderr}`)), PATIENCE_MS);
        }),
      ]);
      service.url = String(listening.url);
      return service;
    } catch (err) {
      service.child.kill('SIGKILL');
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  private take(line: string): void {
    if (!line.startsWith('{')) return;
    const record = JSON.parse(line) as LogRecord;
    this.logs.push(record);
    this.waiters = this.waiters.filter((w) => {
      if (!w.test(record)) return true;
      w.resolve(record);
      return false;
    });
  }

  /** The first log record (already printed or still to come) that passes `test`. */
  waitFor(test: (r: LogRecord) => boolean): Promise<LogRecord> {
    const seen = this.logs.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  /** The admin token from the first-start banner. */
  adminToken(): string {
    const token = /^ {2}(gth_\S+)$/m.exec(this.stdout)?.[1];
    if (!token) throw new Error(`no admin token in the output:\n${this.stdout}`);
    return token;
  }

  /** Sends `signal` and waits for the exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}
