// /metrics in a real server process, where the client address comes from the socket: a client on loopback
// is let in, a reverse proxy on loopback relaying a public client is not, a client reaching another
// interface is not (whatever it forwards), and the bearer token WARREN_METRICS_TOKEN is let in from anywhere.
// Also the JSON logs (WARREN_LOG_FORMAT=json), which only a fresh process can switch on, and the count of
// open streams (a listening app: WebSocket upgrades need a socket).
import { eventually } from "../helpers/eventually.ts";
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { captureOutput, freePort, stop, waitForHttp } from "../../bench/lib/process.ts";
import { startWarren, warrenEnv, type Warren } from "../../bench/lib/servers.ts";
import { signedInUser } from "../helpers/clients.ts";
import { openSse, openWebSocket, startListeningApp, stopListeningApp } from "../helpers/streaming.ts";

setDefaultTimeout(30_000);

const TOKEN = "e2e-metrics-token-abcdef";
let warren: Warren;
let port: string;

beforeAll(async () => {
  warren = await startWarren({ env: { WARREN_HOST: "0.0.0.0", WARREN_METRICS_TOKEN: TOKEN } });
  port = new URL(warren.url).port;
});
afterAll(() => warren.stop());

async function status(base: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(`${base}/metrics`, { headers });
  await res.arrayBuffer();
  return res.status;
}

test("a loopback client gets the metrics; a public client relayed by a proxy on loopback gets 404", async () => {
  const loopback = `http://127.0.0.1:${port}`;
  const res = await fetch(`${loopback}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  const text = await res.text();
  expect(text).toContain("# TYPE warren_http_requests_total counter");
  // The server's own start-up request (the harness waited for /api/v2/instance) was counted by route.
  expect(text).toMatch(/warren_http_requests_total\{route="\/api\/v2\/instance",status="200"\} [1-9]/);
  expect(await status(loopback, { "x-forwarded-for": "203.0.113.7" })).toBe(404);
  expect(await status(loopback, { "x-forwarded-for": "203.0.113.7", authorization: `Bearer ${TOKEN}` })).toBe(200);
  expect(await status(loopback, { authorization: "Bearer not-the-token-at-all" })).toBe(404);
});

const external = Object.values(networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal)?.address;

test.skipIf(!external)("a client on another interface gets 404 unless it has the token, whatever it forwards", async () => {
  const base = `http://${external}:${port}`;
  expect(await status(base)).toBe(404);
  expect(await status(base, { "x-forwarded-for": "127.0.0.1" })).toBe(404);
  expect(await status(base, { authorization: `Bearer ${TOKEN}` })).toBe(200);
  expect(await status(base, { authorization: `Bearer ${TOKEN}-` })).toBe(404);
});

test("WARREN_LOG_FORMAT=json: one JSON object a line, each request's lines carrying its X-Request-Id", async () => {
  const dir = mkdtempSync(join(tmpdir(), "warren-logs-"));
  const logPort = freePort();
  const env = warrenEnv(dir, logPort, { WARREN_LOG: "on", WARREN_LOG_FORMAT: "json" });
  const proc = Bun.spawn([process.execPath, "src/main.ts", "serve"], { cwd: join(import.meta.dir, "../.."), env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const output = captureOutput(proc);
  try {
    const base = `http://127.0.0.1:${logPort}`;
    await waitForHttp(`${base}/api/v2/instance`, proc, output);
    const ids: string[] = [];
    for (const path of ["/api/v1/instance", "/api/v1/statuses/1"]) {
      const res = await fetch(base + path);
      await res.arrayBuffer();
      ids.push(res.headers.get("x-request-id")!);
    }
    expect(new Set(ids).size).toBe(2);
    const lines = () => output().trim().split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line));
    await eventually(async () => lines().filter((line) => ids.includes(line.request_id)).length === 2);
    expect(lines().find((line) => line.request_id === ids[1])).toMatchObject({ level: "info", msg: "request", method: "GET", route: "/api/v1/statuses/:id", status: 404 });
    // Read again until it is there: under load the output arrives in pieces.
    const listening = await eventually(async () => lines().find((line) => line.msg === "warren listening"));
    expect(listening).toMatchObject({ level: "info", port: logPort });
    // Nothing but JSON on stderr, apart from the start-up hint meant for a person (src/cli/owner-hint.ts).
    const other = output().trim().split("\n").filter((line) => !line.startsWith("{"));
    expect(other.filter((line) => !line.startsWith("No Owner account yet") && !line.startsWith("  npx warren"))).toEqual([]);
  } finally {
    await stop(proc);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("open streams are counted while they last (WebSocket and SSE)", async () => {
  const { t, base } = await startListeningApp();
  const connections = async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    return Number(/^warren_streaming_connections (\d+)$/m.exec(text)![1]);
  };
  try {
    const { token } = await signedInUser(t, "sam");
    expect(await connections()).toBe(0);
    const ws = await openWebSocket(base, `?access_token=${token}&stream=user`);
    const sse = await openSse(base, "/api/v1/streaming/user", token);
    await eventually(async () => (await connections()) === 2);
    ws.close();
    sse.close();
    await eventually(async () => (await connections()) === 0);
  } finally {
    await stopListeningApp(t);
  }
});
