// Entry point: argv and environment → one CLI verb → exit status.
import { isMainThread, workerData } from 'node:worker_threads';
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

// The same code is a read worker's (src/reads/pool.ts starts this file, or the executable's bundle, with
// workerData saying so). runCli never rejects: it prints what went wrong and returns the status. (No
// top-level await: the executable's bundle is CommonJS.)
// The worker's code is imported only in a worker, so `help` and the CLI verbs load none of the app.
if (!isMainThread && (workerData as { role?: unknown } | null)?.role === 'gatehouse-read-worker') {
  void import('./reads/worker.ts').then((worker) => worker.startReadWorker(workerData as import('./reads/pool.ts').ReadWorkerData));
} else {
  void runCli(process.argv.slice(2), process.env).then((status) => {
    process.exitCode = status;
  });
}
