// A real HTTP receiver on loopback for event-stream tests: records every delivery and answers as told.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keepConnections, PATIENCE_MS } from './wait.ts';

export interface Delivery {
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: string;
  /** The parsed body: `{ type, timestamp, data }`. */
  payload: { type: string; timestamp: string; data: { event_id: string; event_type: string; [field: string]: unknown } };
}

/** What to answer a delivery: a status, or 'hold' to keep it open until the receiver closes. */
export type Answer = number | 'hold';

export class WebhookReceiver {
  readonly deliveries: Delivery[] = [];
  /** Decides the answer to each delivery (called after it is recorded); 200 unless replaced. */
  answer: (delivery: Delivery, index: number) => Answer = () => 200;
  private readonly held: ServerResponse[] = [];
  private waiters: { test: () => boolean; resolve: () => void }[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    let receiver!: WebhookReceiver;
    const server = keepConnections(createServer((req, res) => void receiver.take(req, res)));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return receiver;
  }

  private async take(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
    const delivery: Delivery = { path: url.pathname, query: url.searchParams, headers, body, payload: JSON.parse(body) as Delivery['payload'] };
    this.deliveries.push(delivery);
    const answer = this.answer(delivery, this.deliveries.length - 1);
    this.waiters = this.waiters.filter((w) => (w.test() ? (w.resolve(), false) : true));
    if (answer === 'hold') {
      this.held.push(res);
      res.on('error', () => undefined);
      return;
    }
    res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'no');
  }

  /** The event ids delivered, in arrival order (duplicates kept). */
  eventIds(): string[] {
    return this.deliveries.map((d) => d.payload.data.event_id);
  }

  /** Resolves once `test` holds; rejects after `deadlineMs` naming `what`. */
  async waitUntil(test: () => boolean, what: string, deadlineMs = PATIENCE_MS): Promise<void> {
    if (test()) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        new Promise<void>((resolve) => this.waiters.push({ test, resolve })),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`receiver: ${what} did not happen within ${deadlineMs} ms (${this.deliveries.length} deliveries)`)), deadlineMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close').catch(() => undefined);
  }
}
