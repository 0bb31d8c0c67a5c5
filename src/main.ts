// Entry point: argv and environment → one CLI verb → exit status.
import { runCli } from './cli.ts';

// Output piped into something that stops reading (| head) is not a failure of the command.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

// runCli never rejects: it prints what went wrong and returns the status. (No top-level await:
// the executable's bundle is CommonJS.)
void runCli(process.argv.slice(2), process.env).then((status) => {
  process.exitCode = status;
});
