// The read worker's side: a read-only connection of its own, the stores over it, and a loop that runs
// one task at a time (pool.ts sends at most one) and answers its value or its error.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { AREAS } from '../areas.ts';
import { createContext } from '../context.ts';
import { openDatabase } from '../db/open.ts';
import { toAppError } from '../http/errors.ts';
import { JsonText } from '../http/json-text.ts';
import { ManualClock } from '../lib/clock.ts';
import { createLogger } from '../lib/log.ts';
import { WORKER_CACHE_KIB, type ReadWorkerData, type ResultMessage, type TaskMessage } from './pool.ts';
import { runTask } from './tasks.ts';

/** Starts serving tasks from the main thread; returns at once (the port keeps the worker alive). */
export function startReadWorker(data: ReadWorkerData): void {
  const port = parentPort;
  if (!port) throw new Error('startReadWorker runs in a worker thread');
  // On Linux a nice value belongs to a thread: this lowers the worker's alone, so when the cores are
  // busy the event loop (and the requests it answers) runs first, and heavy reads take the rest.
  try {
    setPriority(19);
  } catch {
    // Not permitted or not supported: the worker runs at the process's priority.
  }
  const db = openDatabase(data.dbFile, { readonly: true });
  // A reader's pages come from the OS's file cache nearly as cheaply as from SQLite's own, which would
  // count in the process's RSS: keep a smaller one than the main connection's (docs/read-workers.md).
  db.pragma(`cache_size = -${WORKER_CACHE_KIB}`);
  // Each task runs at the instant the main thread gave it, so a worker never reads a different "now".
  const clock = new ManualClock();
  const ctx = createContext({ db, clock, config: data.config, log: createLogger(data.config.logLevel) }, AREAS, data.cursorSecret);
  const encoder = new TextEncoder();
  port.on('message', (message: TaskMessage) => {
    let answer: ResultMessage;
    try {
      const now = new Date(message.nowIso);
      clock.set(now);
      const value = runTask(ctx, message.task, message.args as never, now, message.budget);
      // A page for a client leaves as UTF-8 bytes whose buffer is transferred, not copied (json-text.ts).
      if (message.json) {
        // A task may answer its JSON text already made (a page serialised as it was cut: Pager.pageJson).
        const bytes = encoder.encode(value instanceof JsonText && typeof value.text === 'string' ? value.text : JSON.stringify(value));
        port.postMessage({ id: message.id, ok: true, value: bytes } satisfies ResultMessage, [bytes.buffer]);
        return;
      }
      // Byte buffers in the answer (a review's snapshot chunks) are transferred, not copied.
      const transfer = (typeof value === 'object' && value !== null ? Object.values(value) : []).flatMap((field: unknown) =>
        (Array.isArray(field) ? field : [field]).filter((x): x is Uint8Array => x instanceof Uint8Array).map((x) => x.buffer as ArrayBuffer));
      if (transfer.length > 0) {
        port.postMessage({ id: message.id, ok: true, value } satisfies ResultMessage, transfer);
        return;
      }
      answer = { id: message.id, ok: true, value };
    } catch (err) {
      const known = toAppError(err);
      answer = known
        ? { id: message.id, ok: false, error: { code: known.code, message: known.message, details: known.details }, text: known.message }
        : { id: message.id, ok: false, error: null, text: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    }
    port.postMessage(answer);
  });
}
