// A response body written into one byte buffer: kept UTF-8 parts copied in, short text encoded in place.
// Joining a page of statuses as strings made a rope of hundreds of pieces that Bun flattened and encoded
// when the Response was made: about 13 µs per 38 KB page, twice what joining the parts cost, measured in
// process (docs/benchmarks.md, "one buffer per page").
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class ByteWriter {
  private buffer: Uint8Array;
  private length = 0;

  constructor(capacity = 64 * 1024) {
    this.buffer = new Uint8Array(capacity);
  }

  private reserve(more: number): void {
    const needed = this.length + more;
    if (needed <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(needed, this.buffer.length * 2));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }

  bytes(part: Uint8Array): void {
    this.reserve(part.length);
    this.buffer.set(part, this.length);
    this.length += part.length;
  }

  /** Text known to be ASCII (JSON punctuation, booleans, numbers, ids): one byte per character. */
  ascii(text: string): void {
    this.reserve(text.length);
    const { buffer } = this;
    let at = this.length;
    for (let i = 0; i < text.length; i++) buffer[at++] = text.charCodeAt(i);
    this.length = at;
  }

  /** Any text, as UTF-8. */
  text(text: string): void {
    this.reserve(text.length * 3);
    this.length += encoder.encodeInto(text, this.buffer.subarray(this.length)).written;
  }

  /** How many bytes were written so far. */
  get position(): number {
    return this.length;
  }

  /** What was written from `start` on, as text (for checks under tests). */
  textFrom(start: number): string {
    return decoder.decode(this.buffer.subarray(start, this.length));
  }

  /** What was written, as a buffer of its own. */
  done(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }

  /** Empty again, keeping its buffer. */
  clear(): void {
    this.length = 0;
  }
}

let shared: ByteWriter | null = null;

/**
 * Runs `write` with a writer that is reused between calls (the rendering is synchronous, so one per thread
 * serves every page; a nested call gets a writer of its own) and returns the bytes it wrote.
 */
export function writeBytes(write: (writer: ByteWriter) => void): Uint8Array {
  const writer = shared ?? new ByteWriter();
  shared = null;
  try {
    write(writer);
    return writer.done();
  } finally {
    writer.clear();
    shared = writer;
  }
}
