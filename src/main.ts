#!/usr/bin/env bun
// CLI entry, with tootctl's words: `serve`, `accounts …`, `settings …`, `backup`, `restore` …. Older data is
// migrated first (after a safety snapshot, backup/upgrade.ts); newer data is refused with one line.
import { ConfigError, loadConfig } from "./config.ts";
import { startServer } from "./server.ts";
import { runCli } from "./cli/index.ts";
import { upgradeDataDir } from "./backup/upgrade.ts";
import { DataFormatError } from "./store/migrations.ts";

// Words that must not migrate the data directory first: they read it as it is, or fill an empty one.
const LEAVE_DATA_AS_IS = new Set(["backup", "restore", "version", "--version", "-v", "help", "--help"]);

async function serve() {
  const server = await startServer(loadConfig());
  let stopping = false;
  // A signal can arrive twice (from a terminal's process group and from a wrapper such as `npx warren`).
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`${signal}: shutting down\n`);
    await server.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

async function main(argv: string[]) {
  const [command = "serve", ...rest] = argv;
  try {
    if (!LEAVE_DATA_AS_IS.has(command)) await upgradeDataDir(loadConfig().dataDir);
    if (command === "serve") return await serve();
    process.exitCode = await runCli(command, rest);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exit(1);
    }
    if (error instanceof DataFormatError) {
      process.stderr.write(`warren: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

await main(process.argv.slice(2));
