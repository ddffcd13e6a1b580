// The two servers a scenario compares: Warren (`bun src/main.ts serve` on a fresh data directory) and the
// bare handler (bare-server.ts). Both are child processes, so neither shares a thread with the load generator.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { captureOutput, freePort, run, stop, waitForHttp } from "./process.ts";

const root = join(import.meta.dir, "../..");
const bun = process.execPath;

export interface ChildServer {
  url: string;
  stop(): Promise<void>;
}

export interface Warren extends ChildServer {
  /** The server process, for sampling its memory. */
  pid: number;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** Runs `warren <args>` (the CLI) against the same data directory. */
  cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }>;
  /** Runs a bun script (a seeding step too big for the API) with Warren's environment, so on its data directory. */
  script(path: string, ...args: string[]): Promise<{ stdout: string; stderr: string; code: number }>;
}

function spawnServer(cmd: string[], env: Record<string, string | undefined>, cwd = root) {
  const proc = Bun.spawn(cmd, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  return { proc: proc as Subprocess<"ignore", "pipe", "pipe">, output: captureOutput(proc) };
}

export interface WarrenOptions {
  env?: Record<string, string>;
  /** Extra `bun` flags, e.g. --cpu-prof-md (the profile is written when Warren stops). */
  bunFlags?: string[];
  /** An existing data directory (a seeded instance's copy), kept when Warren stops; a fresh temporary one by default. */
  dataDir?: string;
  /** Another checkout of Warren to run the server and its CLI from (`bun bench/run.ts --baseline=DIR`). */
  root?: string;
}

/** The environment of a Warren server process on loopback: its own data, port and URL, quiet, production
 * mode; rate limits off, since load from one address would be refused within a second (scenarios that
 * measure the limits turn them on). */
export function warrenEnv(dir: string, port: number, extra: Record<string, string> = {}): Record<string, string | undefined> {
  return {
    ...process.env,
    NODE_ENV: "production",
    WARREN_DATA_DIR: dir,
    WARREN_PORT: String(port),
    WARREN_HOST: "127.0.0.1",
    WARREN_URL: `http://127.0.0.1:${port}`,
    WARREN_LOG: "off",
    WARREN_RATE_LIMITS: "off",
    ...extra,
  };
}

export async function startWarren(options: WarrenOptions = {}): Promise<Warren> {
  const dir = options.dataDir ?? mkdtempSync(join(tmpdir(), "warren-bench-"));
  const removeDir = () => {
    if (!options.dataDir) rmSync(dir, { recursive: true, force: true });
  };
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = warrenEnv(dir, port, options.env);
  const cwd = options.root ?? root;
  const { proc, output } = spawnServer([bun, ...(options.bunFlags ?? []), "src/main.ts", "serve"], env, cwd);
  try {
    await waitForHttp(`${url}/api/v2/instance`, proc, output, 200, options.dataDir ? 300_000 : 20_000);
  } catch (error) {
    await stop(proc);
    removeDir();
    throw error;
  }
  return {
    url,
    pid: proc.pid,
    output,
    cli: (...args) => run([bun, "src/main.ts", ...args], { cwd, env }),
    script: (path, ...args) => run([bun, path, ...args], { cwd: root, env }),
    async stop() {
      await stop(proc);
      removeDir();
    },
  };
}

export interface Sample {
  status: number;
  contentType: string;
  body: Uint8Array;
}

export async function startBare(sample: Sample): Promise<ChildServer> {
  const dir = mkdtempSync(join(tmpdir(), "warren-bench-bare-"));
  const bodyFile = join(dir, "body");
  writeFileSync(bodyFile, sample.body);
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const { proc, output } = spawnServer([bun, join(import.meta.dir, "bare-server.ts")], {
    ...process.env,
    BARE_PORT: String(port),
    BARE_BODY_FILE: bodyFile,
    BARE_STATUS: String(sample.status),
    BARE_CONTENT_TYPE: sample.contentType,
  });
  await waitForHttp(url, proc, output, null).catch(async (error) => {
    await stop(proc);
    throw error;
  });
  return {
    url,
    async stop() {
      await stop(proc);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
