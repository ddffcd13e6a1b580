// Media uploads spoken over raw sockets, as the hardening issue's attacker and a busy instance send them:
// a multipart body of a chosen size (an MP4 `ftyp` box, then filler) with or without a token, by
// Content-Length or chunked, optionally stalling after the head; and a flood of them in parallel while the
// server's memory is sampled and an unrelated GET is timed. Used by bench/upload-flood.ts and
// tests/e2e/upload-intake.test.ts.
import { connect } from "node:net";
import { memoryOf } from "./memory.ts";

export const MiB = 1024 * 1024;
const BOUNDARY = "warrenUploadFloodBoundary";
const FILLER = Buffer.alloc(MiB, 0x61);
// The start of an MP4: what the server sniffs. The rest is filler.
const MP4_HEAD = Buffer.from("000000186674797069736f6d0000020069736f6d69736f32", "hex");

export interface UploadOptions {
  port: number;
  method?: string;
  path?: string;
  token?: string;
  /** More header lines, e.g. "Cookie: …". */
  headers?: string[];
  /** Bytes of the file part. */
  fileBytes: number;
  chunked?: boolean;
  /** Send the head and this many body bytes, then nothing more (until the answer or the socket closes). */
  stallAfter?: number;
}

export interface UploadResult {
  /** The answer's status (0 when none came). */
  status: number;
  /** Milliseconds from the first byte sent to the answer's first byte. */
  answeredMs: number;
  /** Body bytes written before the answer came. */
  sentBeforeAnswer: number;
  /** Whether the server closed the connection after answering. */
  closedByServer: boolean;
  /** The answer's status line and headers. */
  head: string;
}

function multipartParts(fileBytes: number): { head: Buffer; tail: Buffer; total: number } {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="description"\r\n\r\nflood\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="flood.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  return { head: Buffer.concat([head, MP4_HEAD]), tail, total: head.length + MP4_HEAD.length + fileBytes + tail.length };
}

/** One upload over a raw socket; resolves when answered and closed, or after `timeoutMs`. */
export function rawUpload(options: UploadOptions, timeoutMs = 60_000): Promise<UploadResult> {
  const { head, tail, total } = multipartParts(Math.max(0, options.fileBytes - MP4_HEAD.length));
  const lines = [
    `${options.method ?? "POST"} ${options.path ?? "/api/v2/media"} HTTP/1.1`,
    "Host: localhost",
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
    options.chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${total}`,
    ...(options.token ? [`Authorization: Bearer ${options.token}`] : []),
    ...(options.headers ?? []),
  ];
  return new Promise((resolve) => {
    const socket = connect(options.port, "127.0.0.1");
    const started = performance.now();
    const result: UploadResult = { status: 0, answeredMs: -1, sentBeforeAnswer: 0, closedByServer: false, head: "" };
    let answer = "";
    let sent = 0;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(finish, timeoutMs);
    const frame = (piece: Buffer) => (options.chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")]) : piece);
    const pieces = function* () {
      yield head;
      for (let left = total - head.length - tail.length; left > 0; left -= FILLER.length) yield FILLER.subarray(0, Math.min(left, FILLER.length));
      yield tail;
    };
    const source = pieces();
    const pump = () => {
      for (;;) {
        if (socket.destroyed || result.status || (options.stallAfter !== undefined && sent >= options.stallAfter)) return;
        const next = source.next();
        if (next.done) return void (options.chunked && socket.write("0\r\n\r\n"));
        const piece = options.stallAfter === undefined ? next.value : next.value.subarray(0, options.stallAfter - sent);
        sent += piece.length;
        if (!socket.write(frame(piece))) return void socket.once("drain", pump);
      }
    };
    socket.on("data", (data) => {
      answer += data.toString("latin1");
      if (!result.status && /^HTTP\/1\.1 (\d{3})/.test(answer)) {
        result.status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)![1]);
        result.answeredMs = performance.now() - started;
        result.sentBeforeAnswer = sent;
      }
      // A server that keeps the connection open has answered once the body is complete.
      const headEnd = answer.indexOf("\r\n\r\n");
      if (headEnd >= 0) result.head = answer.slice(0, headEnd);
      const length = /content-length: (\d+)/i.exec(answer);
      if (headEnd >= 0 && length && answer.length - headEnd - 4 >= Number(length[1])) setTimeout(finish, 200);
    });
    socket.on("close", () => {
      result.closedByServer = result.status !== 0 && !finished;
      finish();
    });
    socket.on("error", () => {});
    const requestHead = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`);
    if (options.stallAfter === undefined || options.stallAfter > MiB) socket.write(requestHead, pump);
    else {
      // One write: the head and the little body arrive together, as from a client that then stalls.
      const start = Buffer.concat([head, FILLER]).subarray(0, options.stallAfter);
      sent = start.length;
      socket.write(Buffer.concat([requestHead, options.chunked ? frame(start) : start]));
    }
  });
}

export interface FloodResult {
  statuses: number[];
  /** Body bytes each upload had written when its answer came. */
  sentBeforeAnswer: number[];
  ms: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  rssAfterMb: number;
  /** Slowest `GET /api/v1/instance` answered while the uploads ran. */
  slowestUnrelatedMs: number;
}

/** Sends `parallel` uploads at once while sampling the server's RSS and timing an unrelated GET. */
export async function uploadFlood(pid: number, baseUrl: string, parallel: number, options: UploadOptions): Promise<FloodResult> {
  const rss = () => memoryOf(pid)?.rssMb ?? NaN;
  const rssBeforeMb = rss();
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, rss())), 25);
  const started = performance.now();
  const uploads = Promise.all(Array.from({ length: parallel }, () => rawUpload(options)));
  let done = false;
  void uploads.then(() => (done = true));
  let slowestUnrelatedMs = 0;
  while (!done) {
    const at = performance.now();
    await (await fetch(`${baseUrl}/api/v1/instance`)).arrayBuffer();
    slowestUnrelatedMs = Math.max(slowestUnrelatedMs, performance.now() - at);
    await Bun.sleep(20);
  }
  const results = await uploads;
  const ms = performance.now() - started;
  clearInterval(sampler);
  await Bun.sleep(300);
  return { statuses: results.map((r) => r.status), sentBeforeAnswer: results.map((r) => r.sentBeforeAnswer), ms, rssBeforeMb, rssPeakMb, rssAfterMb: rss(), slowestUnrelatedMs };
}
