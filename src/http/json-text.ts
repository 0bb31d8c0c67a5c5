// A reply body already serialised (by a read worker, src/reads/pool.ts, or kept between reads: db/kept.ts):
// the router sends it as is.
// A worker hands its answer over as UTF-8 bytes in a transferred ArrayBuffer, so the main thread never
// holds the page as a string (a 4 MiB page would otherwise be a worker string, a copy on the main
// heap, and a third copy as the socket's Buffer).
export class JsonText<T = unknown> {
  #settled = false;
  /** What the text holds, for the types only (a handler's reply is typed by its route's schema). */
  declare readonly holds?: T;

  /** `onSettled` runs once, when the bytes are no longer held for the client (sent, or the client gone). */
  constructor(
    readonly text: string | Uint8Array,
    private readonly onSettled?: () => void,
    /** Whether the bytes are shared with later answers (kept between reads): then sending them never frees them. */
    readonly isShared = false,
  ) {}

  /** Bytes kept for many answers (an item's JSON kept by its store): sent as they are, never freed by a send. */
  static shared<T>(bytes: Uint8Array): JsonText<T> {
    return new JsonText<T>(bytes, undefined, true);
  }

  /** What the socket is given: the bytes themselves (no copy), or the text. */
  get body(): string | Buffer {
    return typeof this.text === 'string' ? this.text : Buffer.from(this.text.buffer, this.text.byteOffset, this.text.byteLength);
  }

  /**
   * Frees the bytes now, once the socket has sent them (call it on the response's 'finish', never
   * before: the socket reads the memory until then). Otherwise they would wait for the main heap's next
   * collection, which a heap with little garbage of its own puts off while tens of MB of pages pile up.
   */
  release(): void {
    this.settle();
    if (typeof this.text === 'string' || this.isShared) return;
    // Detaching the buffer drops its memory at once (ES2024 ArrayBuffer.prototype.transfer; Node ≥ 21).
    (this.text.buffer as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0);
  }

  /** The bytes are no longer waiting for their client (it went away): counted as gone, left to the collector. */
  settle(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.onSettled?.();
  }
}
