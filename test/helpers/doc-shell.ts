// Runs a document's fenced `sh` blocks with bash, in order, as a reader would in one terminal: variables
// set by one block are there in the next, a failing command fails its block, and every curl fails on an
// HTTP error (a .curlrc with fail-with-body), so a guide that drifts from the service fails a test.
//
// A block may be preceded by an HTML comment saying what the test does there (invisible when rendered):
//   <!-- doc-test: skip REASON -->       the block is not run (REASON is required: why it cannot be)
//   <!-- doc-test: jobs -->              the service's jobs run first (notices, expiry sweep, outbox)
//   <!-- doc-test: advance MINUTES -->   the clock moves MINUTES, then the jobs run
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tick as outboxTick } from '../../src/outbox/index.ts';
import { tick as sweepTick } from '../../src/modules/access/sweep.ts';
import { ADMIN_TOKEN, type TestApp } from './app.ts';
import { PATIENCE_MS } from './wait.ts';

/** The repository's root, where the blocks run (npm scripts, docs). */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type Directive = { skip: string } | { jobs: true } | { advanceMinutes: number };

export interface ShellBlock {
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
  directive: Directive | null;
}

const DIRECTIVE = /^<!--\s*doc-test:\s*(.*?)\s*-->$/;

function parseDirective(text: string, line: number): Directive {
  const skip = /^skip\s+(\S.*)$/.exec(text);
  if (skip) return { skip: skip[1]! };
  if (text === 'jobs') return { jobs: true };
  const advance = /^advance\s+(\d+)$/.exec(text);
  if (advance) return { advanceMinutes: Number(advance[1]) };
  throw new Error(`line ${line}: unknown doc-test directive "${text}" (skip REASON, jobs, advance MINUTES)`);
}

/** The fenced `sh` blocks of `markdown` (indented ones too, their indent removed), each with the directive just before it. */
export function shellBlocks(markdown: string): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, info] = open;
    let end = i + 1;
    while (end < lines.length && lines[end]!.trim() !== '```') end += 1;
    if (info === 'sh') {
      let before = i - 1;
      while (before >= 0 && lines[before]!.trim() === '') before -= 1;
      const comment = before >= 0 ? DIRECTIVE.exec(lines[before]!.trim()) : null;
      blocks.push({
        line: i + 1,
        code: lines.slice(i + 1, end).map((l) => (l.startsWith(indent!) ? l.slice(indent!.length) : l)).join('\n'),
        directive: comment ? parseDirective(comment[1]!, before + 1) : null,
      });
    }
    i = end;
  }
  return blocks;
}

export interface RunOptions {
  /** The variables the guide expects its reader to have (T, B, …), besides PATH and HOME. */
  env: Record<string, string>;
  cwd: string;
  /** Runs the service's jobs at the clock's time. */
  jobs(): Promise<void>;
  /** Moves the service's clock. */
  advance(minutes: number): void;
}

export interface BlockRun {
  block: ShellBlock;
  /** null when skipped. */
  stdout: string | null;
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // Asynchronous on purpose: the service answering the block's curl runs in this process.
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), PATIENCE_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Runs `blocks` in order as described in this file's header. Throws, naming the document line,
 * the block and what it printed, at the first block that exits non-zero.
 */
export async function runShellBlocks(name: string, blocks: ShellBlock[], options: RunOptions): Promise<BlockRun[]> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-doc-'));
  try {
    writeFileSync(join(dir, '.curlrc'), 'fail-with-body\nshow-error\n');
    const state = join(dir, 'state.sh');
    writeFileSync(state, '');
    const env: Record<string, string> = {
      PATH: `${join(options.cwd, 'node_modules', '.bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: process.env.HOME ?? dir, LANG: 'C.UTF-8', CURL_HOME: dir, DOC_STATE: state, ...options.env,
    };
    // The names a fresh shell has: everything else a block sets is the reader's, carried to the next block.
    const baseline = (await bash('compgen -v', options.cwd, env)).stdout.split('\n').filter(Boolean).join(' ');
    const carry = `set +e; for __v in $(compgen -v); do case " ${baseline} " in *" $__v "*) ;; *) case "$__v" in __*) ;; *) declare -p "$__v" 2>/dev/null;; esac;; esac; done | grep -v '^declare -[a-zA-Z]*r' > "$DOC_STATE"`;
    const runs: BlockRun[] = [];
    for (const block of blocks) {
      const directive = block.directive;
      if (directive && 'skip' in directive) {
        runs.push({ block, stdout: null });
        continue;
      }
      if (directive && 'advanceMinutes' in directive) options.advance(directive.advanceMinutes);
      if (directive) await options.jobs();
      const result = await bash(`source "$DOC_STATE"\nset -euo pipefail\n${block.code}\n${carry}`, options.cwd, env);
      if (result.code !== 0) {
        throw new Error(`${name}:${block.line}: the block exited with ${result.code}\n--- block\n${block.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
      }
      runs.push({ block, stdout: result.stdout });
    }
    return runs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A reason to skip when a tool the guide uses is not installed (`tool --version` fails), else false. */
export function missingTools(tools: string[]): string | false {
  const missing = tools.filter((tool) => {
    try {
      execFileSync(tool, ['--version'], { stdio: 'pipe' });
      return false;
    } catch {
      return true;
    }
  });
  return missing.length > 0 && `the guide uses ${missing.join(', ')}, which ${missing.length === 1 ? 'is' : 'are'} not installed`;
}

/**
 * Runs the `sh` blocks of `doc` (a path from the repository root) against `app`, from the root, with
 * T (the admin's token), B (the app's /v1 address) and `env`; the jobs are the expiry sweep and the
 * outbox at the app's clock. Asserts `minBlocks` blocks run, so a broken reader cannot pass.
 */
export async function runDoc(app: TestApp, doc: string, env: Record<string, string>, minBlocks: number): Promise<BlockRun[]> {
  const blocks = shellBlocks(readFileSync(join(ROOT, doc), 'utf8'));
  const running = blocks.filter((b) => !(b.directive && 'skip' in b.directive)).length;
  if (running < minBlocks) throw new Error(`${doc}: ${running} shell blocks to run, expected at least ${minBlocks}`);
  return runShellBlocks(doc, blocks, {
    cwd: ROOT,
    env: { T: ADMIN_TOKEN, B: app.url, ...env },
    jobs: async () => {
      sweepTick(app.ctx, app.clock.now());
      await outboxTick(app.ctx, app.clock.now());
    },
    advance: (minutes) => app.clock.advance(minutes * 60_000),
  });
}
