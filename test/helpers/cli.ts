// Runs the operator CLI in this process, through the same runCli(argv, env) that `gatehouse` calls,
// and keeps what it prints. Spawn a real process (test/service/helpers/gatehouse-process.ts) only
// where the process is the point: signals, the executable, a crash, a second process on the file.
import { runCli } from '../../src/cli.ts';

export interface CliRun {
  /** The exit status `gatehouse` would end with. */
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `gatehouse <args>` with `env` as its whole environment (nothing inherited from the test's, so a
 * developer's GATEHOUSE_* variables cannot change the outcome). Give a `--db` or GATEHOUSE_DB in a
 * temp dir to any verb that could reach a database: the default path is relative to the working directory.
 */
export async function cli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...args], env, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
  });
  return { code, stdout, stderr };
}
