// Entry point: argv and environment → one CLI verb → exit status.
import { runCli } from './cli.ts';

// One runtime: the executable embeds Node 24, and in a checkout every npm script runs the Node 24 that
// `npm ci` installs (node_modules/.bin/node). Started by an older Node directly, say how to start it.
if (Number(process.versions.node.split('.')[0]) < 24) {
  process.stderr.write(`gatehouse: needs Node 24 (this is ${process.version}); in a checkout run it through npm (\`npm start\`, \`npm run gatehouse -- …\`), which uses the Node 24 that \`npm ci\` installed\n`);
  process.exit(1);
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

// Output piped into something that stops reading (| head) is not a failure of the command.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

runCli(process.argv.slice(2), process.env).then(
  (status) => {
    process.exitCode = status;
  },
  (err: unknown) => {
    process.stderr.write(`gatehouse: ${describeFailure(err)}\n`);
    process.exitCode = 1;
  },
);
