// Requests written byte by byte on a socket, for what fetch refuses to send: Content-Length that lies,
// conflicting framing, broken chunked encoding, odd request lines and header bytes. A body that announces
// more than it sends must be dropped by the server's body time-out, not left hanging.
import { wtf8 } from "./encode.ts";
import type { Random } from "./random.ts";

const UNKNOWN_VERSION = "HTTP/9.9";

/**
 * Whether the request line is not `METHOD target HTTP/1.x` in visible ASCII (`HTTP/9.9`, an extra word, a
 * NUL or raw UTF-8 in the target). Bun's parser answers those 505 before Warren sees them: the one 5xx
 * that is not Warren's defect.
 */
export function hasMalformedRequestLine(raw: Uint8Array): boolean {
  const line = new TextDecoder().decode(raw.subarray(0, 4096)).split("\r\n", 1)[0]!;
  return !/^[!-~]+ [!-~]+ HTTP\/1\.[01]$/.test(line);
}

export function rawRequest(rng: Random, method: string, target: string, host: string, authorization?: string): Uint8Array {
  const auth = authorization ? `Authorization: ${authorization}\r\n` : "";
  const head = (line: string, extra = "") => `${line}\r\nHost: ${host}\r\n${auth}${extra}`;
  const json = '{"status":"raw","visibility":"public"}';
  const cases = [
    () => head(`${method} ${target} HTTP/1.1`, `Content-Type: application/json\r\nContent-Length: ${json.length + 100}\r\n\r\n`) + json,
    () => head(`${method} ${target} HTTP/1.1`, `Content-Type: application/json\r\nContent-Length: 5\r\n\r\n`) + json,
    () => head(`${method} ${target} HTTP/1.1`, `Content-Type: application/json\r\nContent-Length: ${json.length}\r\nContent-Length: 2\r\n\r\n`) + json,
    () => head(`${method} ${target} HTTP/1.1`, `Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n`) + `${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`,
    () => head(`${method} ${target} HTTP/1.1`, `Transfer-Encoding: chunked\r\n\r\n`) + `zz\r\n${json}\r\n0\r\n\r\n`,
    () => head(`${method} ${target} HTTP/1.1`, `Transfer-Encoding: chunked\r\n\r\n`) + `ffffffffffffffff\r\n${json}\r\n0\r\n\r\n`,
    () => head(`${method} ${target} HTTP/1.1`, `Transfer-Encoding: gzip, chunked\r\n\r\n`) + `3\r\nabc\r\n0\r\n\r\n`,
    () => head(`${method} ${target} HTTP/1.0`, "\r\n"),
    () => head(`${method} http://evil.example${target} HTTP/1.1`, "\r\n"),
    () => head(`${method.toLowerCase()} ${target} HTTP/1.1`, "\r\n"),
    () => head(`${method} ${target} ${UNKNOWN_VERSION}`, "\r\n"),
    () => head(`${method} ${target}\u0000x HTTP/1.1`, "\r\n"),
    () => head(`${method} ${target} x HTTP/1.1`, "\r\n"),
    () => head(`${method} ${target.replace("/", "/\u00e9\ud83d\ude00/")} HTTP/1.1`, "\r\n"),
    () => head(`${method} /api/v1/../../etc/passwd HTTP/1.1`, "\r\n"),
    () => head(`${"GET".repeat(1000)} ${target} HTTP/1.1`, "\r\n"),
    () => `${method} ${target} HTTP/1.1\r\n\r\n`,
    () => head(`${method} ${target} HTTP/1.1`, "X-Folded: a\r\n b\r\n\r\n"),
    () => head(`${method} ${target} HTTP/1.1`, "X-Nul: a\u0000b\r\n\r\n"),
    () => head(`${method} ${target} HTTP/1.1`, "Bare: lf\n\n"),
    () => head(`${method} ${target} HTTP/1.1`, "X-Unicode: \u00e9\ud83d\ude00\ud800\r\nAccept-Language: \u00e9\r\n\r\n"),
    () => `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer \u00e9\ud83d\ude00\r\n\r\n`,
    () => head(`${method} ${target} HTTP/1.1`, `Authorization: Bearer one\r\nAuthorization: Bearer two\r\n\r\n`),
    () => head(`${method} ${target} HTTP/1.1`, `Content-Length: -1\r\n\r\n`),
    () => head(`${method} ${target} HTTP/1.1`, `Content-Length: 99999999999999999999\r\n\r\n`),
    () => head(`${method} ${target} HTTP/1.1`, `Expect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\n\r\n`) + json,
    () => head(`GET ${target} HTTP/1.1`, "\r\n") + head(`GET ${target} HTTP/1.1`, "\r\n"),
  ];
  return wtf8(rng.pick(cases)());
}

/** Writes `bytes` and reads until the first response head, the connection closes, or the time-out. */
export function sendRaw(host: string, port: number, bytes: Uint8Array, timeoutMs: number): Promise<{ status: string; detail: string }> {
  return new Promise((resolve) => {
    const decoder = new TextDecoder();
    let got = "";
    let finished = false;
    let socket: { end(): void } | undefined;
    const statusOf = () => /^HTTP\/1\.[01] (\d{3})/.exec(got)?.[1] ?? (got ? "garbled" : undefined);
    const finish = (fallback: string) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket?.end();
      resolve({ status: statusOf() ?? fallback, detail: got.slice(0, 2000) });
    };
    const timer = setTimeout(() => finish("hang"), timeoutMs);
    Bun.connect({
      hostname: host,
      port,
      socket: {
        open(s) {
          socket = s;
          s.write(bytes);
        },
        data(_, chunk) {
          got += decoder.decode(chunk, { stream: true });
          if (got.includes("\r\n\r\n")) finish("garbled");
        },
        close: () => finish("closed"),
        error: () => finish("network-error"),
      },
    }).catch(() => finish("network-error"));
  });
}
