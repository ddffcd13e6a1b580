// A minimal HTTP/1.1 keep-alive client connection for the load generator: one request at a time, no
// pipelining, responses framed by Content-Length or chunked encoding. Much cheaper per request than fetch(),
// so the generator is not what limits the measurement.
import type { Socket } from "bun";

const HEAD_END = Buffer.from("\r\n\r\n");
const CRLF = Buffer.from("\r\n");

export interface Exchange {
  /** Called with the status code once a full response has arrived. */
  onResponse(status: number): void;
  /** The connection failed or closed mid-request. */
  onError(error: Error): void;
}

/** Byte offset just past the end of a complete response in `buf`, or -1 when more bytes are needed. */
export function responseEnd(buf: Buffer): { end: number; status: number } | null {
  const headEnd = buf.indexOf(HEAD_END);
  if (headEnd < 0) return null;
  const head = buf.toString("latin1", 0, headEnd);
  const status = Number(head.slice(9, 12));
  const bodyStart = headEnd + 4;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) {
    const end = bodyStart + Number(length[1]);
    return buf.length >= end ? { end, status } : null;
  }
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    let pos = bodyStart;
    for (;;) {
      const lineEnd = buf.indexOf(CRLF, pos);
      if (lineEnd < 0) return null;
      const size = parseInt(buf.toString("latin1", pos, lineEnd), 16);
      if (size === 0) {
        const trailerEnd = buf.indexOf(CRLF, lineEnd + 2);
        return trailerEnd < 0 ? null : { end: trailerEnd + 2, status };
      }
      pos = lineEnd + 2 + size + 2;
      if (pos > buf.length) return null;
    }
  }
  // No body framing (204, 304): the response ends with its head.
  return { end: bodyStart, status };
}

export class Connection {
  private socket: Socket | null = null;
  private buf: Buffer | null = null;
  private pending: Uint8Array | null = null;
  private exchange: Exchange | null = null;

  constructor(private hostname: string, private port: number) {}

  async open(): Promise<void> {
    this.socket = await Bun.connect({
      hostname: this.hostname,
      port: this.port,
      socket: {
        // Events of a socket this connection already gave up on are ignored.
        data: (socket, chunk) => {
          if (socket === this.socket) this.receive(chunk);
        },
        drain: (socket) => {
          if (socket === this.socket) this.flush();
        },
        close: (socket) => {
          if (socket === this.socket) this.fail(new Error("connection closed"));
        },
        error: (socket, error) => {
          if (socket === this.socket) this.fail(error);
        },
      },
    });
    this.socket.setNoDelay(true);
  }

  get isOpen(): boolean {
    return this.socket !== null;
  }

  send(request: Uint8Array, exchange: Exchange): void {
    this.exchange = exchange;
    this.buf = null;
    this.pending = request;
    this.flush();
  }

  close(): void {
    const socket = this.socket;
    this.socket = null;
    this.exchange = null;
    socket?.end();
  }

  private flush() {
    if (!this.pending || !this.socket) return;
    const written = this.socket.write(this.pending);
    this.pending = written >= this.pending.length ? null : this.pending.subarray(Math.max(0, written));
  }

  private receive(chunk: Buffer) {
    this.buf = this.buf ? Buffer.concat([this.buf, chunk]) : chunk;
    const done = responseEnd(this.buf);
    if (!done) return;
    const exchange = this.exchange;
    this.exchange = null;
    this.buf = null;
    exchange?.onResponse(done.status);
  }

  private fail(error: Error) {
    this.socket = null;
    const exchange = this.exchange;
    this.exchange = null;
    exchange?.onError(error);
  }
}

/** The bytes of one request. */
export function encodeRequest(url: URL, method: string, headers: Record<string, string>, body?: string): Uint8Array {
  const lines = [`${method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  const payload = body === undefined ? undefined : Buffer.from(body);
  if (payload) lines.push(`content-length: ${payload.length}`);
  const head = Buffer.from(lines.join("\r\n") + "\r\n\r\n", "latin1");
  return payload ? Buffer.concat([head, payload]) : head;
}
