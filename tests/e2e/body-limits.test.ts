// Body, header and URL limits on a real listening server, spoken to over raw sockets as an attacker would:
// a huge Content-Length is refused before a byte of the body is sent, a chunked body is cut off once it
// passes the limit, a body that stops arriving is dropped, and unrelated requests are answered meanwhile.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { startServer, type RunningServer } from "../../src/server.ts";

setDefaultTimeout(30_000);

let server: RunningServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "warren-limits-"));
  const config = loadConfig({
    WARREN_DATA_DIR: dir,
    WARREN_PORT: "0",
    WARREN_HOST: "127.0.0.1",
    WARREN_LOG: "off",
    WARREN_RATE_LIMITS: "off",
    WARREN_BODY_TIMEOUT_SECONDS: "2",
  });
  const host = process.env.WARREN_HOST;
  process.env.WARREN_HOST = "127.0.0.1"; // startServer reads the listening address from the environment
  server = await startServer(config);
  if (host === undefined) delete process.env.WARREN_HOST;
  else process.env.WARREN_HOST = host;
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Opens a raw connection, writes `head`, and collects whatever the server answers until it closes or `ms`. */
function rawExchange(head: string, options: { after?: (socket: Socket) => void; ms?: number } = {}): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(server.port, "127.0.0.1");
    let answer = "";
    const done = () => {
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(done, options.ms ?? 10_000);
    socket.on("data", (chunk) => {
      answer += chunk.toString("utf8");
      if (/\r\n\r\n/.test(answer) && /content-length: (\d+)/i.test(answer)) {
        const length = Number(/content-length: (\d+)/i.exec(answer)![1]);
        if (answer.length - answer.indexOf("\r\n\r\n") - 4 >= length) {
          clearTimeout(timer);
          done();
        }
      }
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.write(head);
    options.after?.(socket);
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));

describe("bodies", () => {
  test("a 100 MB Content-Length is refused at once with a JSON 413, before the body is sent", async () => {
    const started = Date.now();
    const answer = await rawExchange(
      "POST /oauth/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 104857600\r\n\r\n",
    );
    expect(statusOf(answer)).toBe(413);
    expect(bodyOf(answer)).toEqual({ error: "Request body too large (the limit is 1048576 bytes)" });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test("a chunked body is cut off once it passes the limit", async () => {
    const chunk = "x".repeat(64 * 1024);
    const answer = await rawExchange(
      "POST /api/v1/apps HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n",
      {
        after(socket) {
          // 2 MB in 64 KiB chunks, never terminated: the server must not wait for the end.
          for (let i = 0; i < 32; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
        },
      },
    );
    expect(statusOf(answer)).toBe(413);
    expect(bodyOf(answer).error).toStartWith("Request body too large");
  });

  test("a body that stops arriving is dropped after the time-out (408), and others are served meanwhile", async () => {
    const slow = rawExchange(
      "POST /api/v1/apps HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"client_name\":",
      { ms: 15_000 },
    );
    const meanwhile = await fetch(`${server.url.replace("localhost", "127.0.0.1")}/api/v1/instance`);
    expect(meanwhile.status).toBe(200);
    const answer = await slow;
    expect(statusOf(answer)).toBe(408);
    expect(bodyOf(answer)).toEqual({ error: "The request body took too long to arrive" });
  });

  test("a body within the limit still works, JSON and form", async () => {
    const res = await fetch(`${server.url.replace("localhost", "127.0.0.1")}/api/v1/apps`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "ok", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", website: `https://x.example/${"a".repeat(500_000)}` }),
    });
    expect(res.status).toBeLessThan(500);
    expect(res.status).not.toBe(413);
  });
});

describe("request line and headers", () => {
  test("a request target over 8 KiB is a JSON 414", async () => {
    const answer = await rawExchange(`GET /api/v1/accounts/lookup?acct=${"a".repeat(9000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(statusOf(answer)).toBe(414);
    expect(bodyOf(answer).error).toStartWith("Request URI too long");
  });

  test("headers over 12 KiB are a JSON 431", async () => {
    const answer = await rawExchange(`GET /api/v1/instance HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${"p".repeat(13_000)}\r\n\r\n`);
    expect(statusOf(answer)).toBe(431);
    expect(bodyOf(answer).error).toStartWith("Request header fields too large");
  });
});
