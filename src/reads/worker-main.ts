// A read worker's entry in the executable: build.mjs bundles it alone (only what the read tasks need) and
// embeds it as the asset the pool starts each worker from (src/reads/pool.ts).
import { workerData } from 'node:worker_threads';
import type { ReadWorkerData } from './pool.ts';
import { startReadWorker } from './worker.ts';

startReadWorker(workerData as ReadWorkerData);
