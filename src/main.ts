// Entry point: argv and environment → one CLI verb → exit status.
import { runCli } from './cli.ts';

// One runtime: the executable embeds Node 24, and in a checkout every npm script runs the Node 24 that
// `npm ci` installs (node_modules/.bin/node). Started by an older Node directly, say how to start it.
if (Number(process.versions.node.split('.')[0]) < 24) {
  process.stderr.write(`gatehouse: needs Node 24 (this is ${process.version}); in a checkout run it through npm (\`npm start\`, \`npm run gatehouse -- …\`), which uses the Node 24 that \`npm ci\` installed\n`);
  process.exit(1);
}

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
