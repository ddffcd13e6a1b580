// One kept-alive HTTP/1.1 connection to a server, for tests of several server processes on one port
// (WARREN_PROCESSES): the kernel gives each connection to one process, so every request sent on this one
// reaches the same process. fetch() pools connections out of the test's sight; this sends raw requests.
import { connect, type Socket } from "node:net";

export interface PinnedAnswer {
  status: number;
  headers: Headers;
  text: string;
  json(): any;
}

export class PinnedConnection {
  private buffer = Buffer.alloc(0);
  private waiting: (() => void) | null = null;

  private constructor(private readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.waiting?.();
    });
    socket.on("close", () => this.waiting?.());
  }

  static open(port: number): Promise<PinnedConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => resolve(new PinnedConnection(socket)));
      socket.once("error", reject);
    });
  }

  async request(method: string, path: string, init: { token?: string; json?: unknown; headers?: Record<string, string> } = {}): Promise<PinnedAnswer> {
    const body = init.json === undefined ? "" : JSON.stringify(init.json);
    const lines = [`${method} ${path} HTTP/1.1`, "host: 127.0.0.1", "connection: keep-alive", `content-length: ${Buffer.byteLength(body)}`];
    if (init.token) lines.push(`authorization: Bearer ${init.token}`);
    if (body) lines.push("content-type: application/json");
    for (const [name, value] of Object.entries(init.headers ?? {})) lines.push(`${name}: ${value}`);
    this.socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`);
    return this.readAnswer();
  }

  close(): void {
    this.socket.destroy();
  }

  /** One response with a Content-Length (what the server sends for every non-streaming answer). */
  private async readAnswer(): Promise<PinnedAnswer> {
    for (;;) {
      const end = this.buffer.indexOf("\r\n\r\n");
      if (end >= 0) {
        const [statusLine, ...headerLines] = this.buffer.subarray(0, end).toString("latin1").split("\r\n");
        const headers = new Headers(headerLines.map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()] as [string, string]));
        const length = Number(headers.get("content-length") ?? NaN);
        if (!Number.isInteger(length)) throw new Error(`answer without content-length: ${statusLine}`);
        if (this.buffer.length >= end + 4 + length) {
          const text = this.buffer.subarray(end + 4, end + 4 + length).toString("utf8");
          this.buffer = this.buffer.subarray(end + 4 + length);
          return { status: Number(statusLine!.split(" ")[1]), headers, text, json: () => JSON.parse(text) };
        }
      }
      if (this.socket.destroyed) throw new Error("connection closed before the answer was complete");
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.waiting = null;
    }
  }
}

/** A connection the process with this pid took (WARREN_PROCESS_HEADER names it on every answer). */
export async function connectionTo(port: number, pid: number): Promise<PinnedConnection> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const connection = await PinnedConnection.open(port);
    const answer = await connection.request("GET", "/api/v1/instance");
    if (Number(answer.headers.get("x-warren-pid")) === pid) return connection;
    connection.close();
  }
  throw new Error(`no connection reached process ${pid}`);
}
