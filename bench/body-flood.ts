// The body-size attack from the hardening issue, replayed: 16 parallel 100 MB bodies to the anonymous
// /oauth/token, once with Content-Length (refused before reading) and once chunked (refused as they stream
// in), while an unrelated request is timed. Prints the server's RSS before, at its peak and after, and the
// slowest unrelated answer. Run: bun bench/body-flood.ts
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { startWarren } from "./lib/servers.ts";

const PARALLEL = 16;
const BODY_BYTES = 100 * 1024 * 1024;
const CHUNK = Buffer.alloc(1024 * 1024, "x");

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"))!;
  return Math.round(Number(line.replace(/\D+/g, "")) / 1024);
}

/** Sends one 100 MB body as fast as the socket takes it; resolves with the answer's status line. */
function flood(port: number, chunked: boolean): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    let sent = 0;
    const head = chunked
      ? "POST /oauth/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
      : `POST /oauth/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${BODY_BYTES}\r\n\r\n`;
    const pump = () => {
      while (sent < BODY_BYTES && !socket.destroyed) {
        const piece = chunked ? Buffer.concat([Buffer.from(`${CHUNK.length.toString(16)}\r\n`), CHUNK, Buffer.from("\r\n")]) : CHUNK;
        sent += CHUNK.length;
        if (!socket.write(piece)) return socket.once("drain", pump);
      }
    };
    socket.on("data", (data) => {
      answer += data.toString();
      socket.destroy();
    });
    socket.on("error", () => {});
    socket.on("close", () => resolve(answer.split("\r\n")[0] ?? "(closed)"));
    socket.write(head, pump);
  });
}

async function slowestUnrelated(url: string, while_: Promise<unknown>): Promise<number> {
  let slowest = 0;
  let done = false;
  void while_.then(() => (done = true));
  while (!done) {
    const started = performance.now();
    await (await fetch(`${url}/api/v1/instance`)).arrayBuffer();
    slowest = Math.max(slowest, performance.now() - started);
    await Bun.sleep(20);
  }
  return slowest;
}

const warren = await startWarren();
const port = Number(new URL(warren.url).port);
const pid = warren.pid;
try {
  for (const chunked of [false, true]) {
    const before = rssMb(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
    const started = performance.now();
    const floods = Promise.all(Array.from({ length: PARALLEL }, () => flood(port, chunked)));
    const slowest = await slowestUnrelated(warren.url, floods);
    const answers = await floods;
    clearInterval(sampler);
    await Bun.sleep(500);
    console.log(
      `${chunked ? "chunked" : "Content-Length"}: ${PARALLEL} × 100 MB → ${[...new Set(answers)].join(", ")} in ${Math.round(performance.now() - started)} ms; ` +
        `RSS ${before} → peak ${peak} → ${rssMb(pid)} MB; slowest unrelated GET ${slowest.toFixed(1)} ms`,
    );
  }
} finally {
  await warren.stop();
}
