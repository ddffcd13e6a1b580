// A Warren server process on a data directory the caller owns, for crash tests: it can be killed with
// SIGKILL and started again on the same directory, port and URL (statuses' URIs name the URL, so a
// restart must keep it). Unlike startWarren() (servers.ts), nothing here deletes the data directory.
import type { Subprocess } from "bun";
import { join } from "node:path";
import { captureOutput, freePort, run, stop, waitForHttp } from "./process.ts";
import { warrenEnv } from "./servers.ts";

const root = join(import.meta.dir, "../..");
const bun = process.execPath;

export interface RestartableWarren {
  readonly url: string;
  readonly dir: string;
  /** The current server process's id, or null while none runs. */
  readonly pid: number | null;
  /** Starts a server process on the directory and resolves once it answers; returns how long that took (ms). */
  start(): Promise<number>;
  /** SIGKILL, no warning: resolves once the process is gone. */
  kill9(): Promise<void>;
  /** SIGTERM (SIGKILL after 5 s), as an operator stops it. */
  stop(): Promise<void>;
  /** Runs `warren <args>` (the CLI) against the same data directory. */
  cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }>;
  /** What the current (or last) server process wrote, for failure messages. */
  output(): string;
}

export function restartableWarren(dir: string, extraEnv: Record<string, string> = {}): RestartableWarren {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = warrenEnv(dir, port, extraEnv);
  let proc: Subprocess<"ignore", "pipe", "pipe"> | null = null;
  let output: () => string = () => "";
  return {
    url,
    dir,
    get pid() {
      return proc && proc.exitCode === null && proc.signalCode === null ? proc.pid : null;
    },
    async start() {
      if (this.pid !== null) throw new Error("a server process is already running on this directory");
      const started = performance.now();
      const child = Bun.spawn([bun, "src/main.ts", "serve"], { cwd: root, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      proc = child as Subprocess<"ignore", "pipe", "pipe">;
      output = captureOutput(proc);
      try {
        await waitForHttp(`${url}/api/v2/instance`, proc, output, 200, 30_000);
      } catch (error) {
        await stop(proc);
        throw error;
      }
      return performance.now() - started;
    },
    async kill9() {
      if (!proc) return;
      process.kill(proc.pid, "SIGKILL");
      await proc.exited;
    },
    async stop() {
      if (proc) await stop(proc);
      await proc?.exited;
    },
    cli: (...args) => run([bun, "src/main.ts", ...args], { cwd: root, env }),
    output: () => output(),
  };
}
