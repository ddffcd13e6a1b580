// The first ten minutes, as a new operator lives them: on a machine with only Node.js and npm (Bun lives in
// node_modules), `npx warren …` runs the operator's words, and a server with no Owner says once how to make one.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { runCommand } from "../helpers/cli.ts";

setDefaultTimeout(60_000);

const dataDir = mkdtempSync(join(tmpdir(), "warren-first-run-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** PATH without any folder that holds a `bun` (node_modules/.bin, ~/.bun): what a fresh machine has. */
function pathWithoutBun(): string {
  return (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => !dir.includes("node_modules") && !dir.includes(".bun"))
    .join(delimiter);
}

const env = { ...process.env, PATH: pathWithoutBun(), WARREN_DATA_DIR: dataDir, WARREN_LOG: "off" };

test("without bun on PATH, `bun` is not found but `npx warren` runs the CLI", async () => {
  const bare = await runCommand(["sh", "-c", "command -v bun || echo none"], { env });
  expect(bare.stdout.trim()).toBe("none");
  const created = await runCommand(["npx", "warren", "accounts", "create", "alice", "--email=alice@example.com", "--confirmed", "--role=Owner"], { env });
  expect(created.stderr).toBe("");
  expect(created.code).toBe(0);
  expect(created.stdout).toMatch(/^OK\nNew password: \S{20,}\n$/);
});

/** Starts the server from the sources on `dir` until it listens, then stops it; what it wrote on stderr. */
async function startOnce(dir: string): Promise<string> {
  const child = Bun.spawn([process.execPath, "src/main.ts", "serve"], {
    env: { ...process.env, WARREN_DATA_DIR: dir, WARREN_PORT: "0", WARREN_JOB_WORKERS: "0", WARREN_LOG: "on" },
    stdout: "ignore",
    stderr: "pipe",
  });
  let stderr = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stderr) {
    stderr += decoder.decode(chunk);
    if (stderr.includes("warren listening") && !child.killed) child.kill("SIGTERM");
  }
  await child.exited;
  return stderr;
}

test("a start-up with no Owner prints the exact command that creates one, once; with an Owner, nothing", async () => {
  const fresh = mkdtempSync(join(tmpdir(), "warren-no-owner-"));
  try {
    const stderr = await startOnce(fresh);
    const hint = "npx warren accounts create USERNAME --email=ADDRESS --confirmed --role=Owner";
    expect(stderr.split(hint)).toHaveLength(2);
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
  expect(await startOnce(dataDir)).not.toContain("No Owner account yet");
});
