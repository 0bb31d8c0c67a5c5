// A reply body already serialised (by a read worker, src/reads/pool.ts): the router sends it as is.
// A worker hands its answer over as UTF-8 bytes in a transferred ArrayBuffer, so the main thread never
// holds the page as a string (a 4 MiB page would otherwise be a worker string, a copy on the main
// heap, and a third copy as the socket's Buffer).
export class JsonText {
  constructor(readonly text: string | Uint8Array) {}

  /** What the socket is given: the bytes themselves (no copy), or the text. */
  get body(): string | Buffer {
    return typeof this.text === 'string' ? this.text : Buffer.from(this.text.buffer, this.text.byteOffset, this.text.byteLength);
  }

  get byteLength(): number {
    return typeof this.text === 'string' ? Buffer.byteLength(this.text) : this.text.byteLength;
  }
}
