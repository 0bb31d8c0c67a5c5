// Entry point: argv and environment → one CLI verb → exit status.
import { runCli } from './cli.ts';

runCli(process.argv.slice(2), process.env).then(
  (status) => {
    process.exitCode = status;
  },
  (err: unknown) => {
    process.stderr.write(`gatehouse: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
