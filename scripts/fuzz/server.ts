// The server under test: `bun src/main.ts serve` as a child process on a fresh data directory on loopback,
// with rate limits off, sign-ups open and responses checked against their schemas, and its memory read
// from /proc.
import { join } from "node:path";
import { captureOutput, freePort, run, stop, waitForHttp } from "../../bench/lib/process.ts";
import { warrenEnv } from "../../bench/lib/servers.ts";

const root = join(import.meta.dir, "../..");

export interface ServerUnderTest {
  url: string;
  pid: number;
  /** Everything the server printed so far (errors are logged even with WARREN_LOG=off). */
  output(): string;
  exitCode(): number | null;
  cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }>;
  stop(): Promise<void>;
}

export async function startServer(dataDir: string): Promise<ServerUnderTest> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = warrenEnv(dataDir, port, {
    WARREN_REGISTRATIONS: "open",
    // Bodies that stop arriving are dropped after this; the fuzzer's raw requests that announce more than
    // they send must be answered well within its per-request time-out.
    WARREN_BODY_TIMEOUT_SECONDS: "5",
    // Every answer is checked against the schema /openapi/json publishes for it: a mismatch is a logged 500.
    WARREN_CHECK_RESPONSES: "true",
  });
  const proc = Bun.spawn([process.execPath, "src/main.ts", "serve"], { cwd: root, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const output = captureOutput(proc);
  try {
    await waitForHttp(`${url}/api/v2/instance`, proc, output, 200, 60_000);
  } catch (error) {
    await stop(proc);
    throw error;
  }
  return {
    url,
    pid: proc.pid,
    output,
    exitCode: () => proc.exitCode,
    cli: (...args) => run([process.execPath, "src/main.ts", ...args], { cwd: root, env }),
    stop: () => stop(proc),
  };
}
