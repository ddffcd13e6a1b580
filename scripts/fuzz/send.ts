// Sends one fuzzed request and classifies what came back. A request with no answer within the time-out is
// a hang; an event stream counts as answered once its first bytes arrive (then it is closed); a WebSocket
// is opened, sent its frames and closed.
import type { FuzzRequest } from "./generate.ts";
import { hasMalformedRequestLine, sendRaw } from "./raw.ts";

export interface Outcome {
  /** An HTTP status, or "hang", "network-error", "closed", "garbled", "ws-open", "ws-refused", "ws-close-<code>". */
  status: string;
  ms: number;
  /** The start of the answer's body (or the error), kept for failures. */
  detail: string;
}

/** WebSocket close codes that mean the server failed, as a 5xx does. */
const WS_SERVER_ERRORS = new Set([1011, 1014]);

export function isFailure(request: FuzzRequest, outcome: Outcome): boolean {
  if (outcome.status === "505" && request.raw && hasMalformedRequestLine(request.raw)) return false;
  const closed = /^ws-close-(\d+)$/.exec(outcome.status);
  return outcome.status === "hang" || /^5\d\d$/.test(outcome.status) || (closed !== null && WS_SERVER_ERRORS.has(Number(closed[1])));
}

async function readSome(body: ReadableStream<Uint8Array>, limit: number, eventStream: boolean): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < limit) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      // An open stream never ends: its first bytes are the answer.
      if (eventStream) break;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text;
}

/** The body in three pieces a few milliseconds apart, sent with chunked transfer encoding. */
function trickle(body: Uint8Array): ReadableStream<Uint8Array> {
  const cut = [0, Math.floor(body.length / 3), Math.floor((2 * body.length) / 3), body.length];
  let piece = 0;
  return new ReadableStream({
    async pull(controller) {
      if (piece === 3) return controller.close();
      if (piece > 0) await Bun.sleep(5);
      controller.enqueue(body.subarray(cut[piece]!, cut[piece + 1]!));
      piece++;
    },
  });
}

async function sendHttp(base: string, request: FuzzRequest, timeoutMs: number): Promise<Omit<Outcome, "ms">> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(base + request.target, {
      method: request.method,
      headers: request.headers,
      body: request.body && request.chunked ? trickle(request.body) : request.body,
      redirect: "manual",
      signal,
      // Each request on its own connection: a server that drops a connection after a refused upload must
      // not fail the next request that happened to reuse it.
      keepalive: false,
    });
    const eventStream = (res.headers.get("content-type") ?? "").startsWith("text/event-stream");
    const head = res.body ? await readSome(res.body, eventStream ? 64 : 1 << 20, eventStream) : "";
    return { status: String(res.status), detail: head.slice(0, 2000) };
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { status: signal.aborted ? "hang" : "network-error", detail: message };
  }
}

function sendWebSocket(base: string, request: FuzzRequest, timeoutMs: number): Promise<Omit<Outcome, "ms">> {
  return new Promise((resolve) => {
    const socket = new WebSocket(base.replace(/^http/, "ws") + request.target, { headers: request.headers } as any);
    let opened = false;
    let received = "";
    const finish = (status: string) => {
      clearTimeout(timer);
      resolve({ status, detail: received.slice(0, 2000) });
    };
    const timer = setTimeout(() => {
      socket.close();
      finish(opened ? "ws-open" : "hang");
    }, timeoutMs);
    socket.onopen = () => {
      opened = true;
      for (const frame of request.frames ?? []) socket.send(frame);
      // Give the server a moment to answer the frames, then leave.
      setTimeout(() => socket.close(1000), 200);
    };
    socket.onmessage = (event) => {
      received += String(event.data).slice(0, 500) + "\n";
    };
    socket.onerror = () => {
      if (!opened) finish("ws-refused");
    };
    socket.onclose = (event) => finish(event.code === 1000 || event.code === 1005 ? "ws-open" : `ws-close-${event.code}`);
  });
}

export async function send(base: string, request: FuzzRequest, timeoutMs: number): Promise<Outcome> {
  const started = performance.now();
  const { hostname, port } = new URL(base);
  const outcome = request.raw
    ? await sendRaw(hostname, Number(port), request.raw, timeoutMs)
    : request.kind === "websocket"
      ? await sendWebSocket(base, request, timeoutMs)
      : await sendHttp(base, request, timeoutMs);
  return { ...outcome, ms: Math.round(performance.now() - started) };
}
