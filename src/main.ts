#!/usr/bin/env bun
// CLI entry, with tootctl's words: `serve`, `accounts …`, `settings …`, `backup`, `restore` …. Older data is
// migrated first (after a safety snapshot, backup/upgrade.ts); newer data is refused with one line.
import { ConfigError, loadConfig, type Config } from "./config.ts";
import { clusterLink } from "./cluster/link.ts";
import { PROCESS_INDEX_ENV } from "./cluster/messages.ts";
import { Supervisor, serverCommand } from "./cluster/supervisor.ts";
import { startServer } from "./server.ts";
import { upgradeDataDir } from "./backup/upgrade.ts";
import { DataFormatError } from "./store/migrations.ts";
import { refuseIfServed, runningServerPid, ServedElsewhereError } from "./lib/server-pid.ts";
import { ID_TAG_ENV } from "./lib/ids.ts";
import { claimCliIdTag } from "./lib/cli-id-tag.ts";

// Words that must not migrate the data directory first: they read it as it is, or fill an empty one.
const LEAVE_DATA_AS_IS = new Set(["restart", "backup", "restore", "version", "--version", "-v", "help", "--help"]);

async function serve() {
  const config = loadConfig();
  const link = clusterLink();
  if (config.processes > 1 && !link) return supervise(config);
  const server = await startServer(config);
  link?.ready();
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
  // The supervisor is gone (killed): nothing would restart or stop this process, nor count its rate limits.
  if (link) process.on("disconnect", () => void shutdown("supervisor gone"));
  // `warren restart` signals whoever the pid file names: a lone server has no processes to replace (and
  // SIGUSR2's default would end it).
  else process.on("SIGUSR2", () => process.stderr.write("SIGUSR2: a rolling restart needs WARREN_PROCESSES > 1; this server keeps running\n"));
}

/** WARREN_PROCESSES > 1: this process starts and watches the server processes (src/cluster/supervisor.ts). */
async function supervise(config: Config) {
  const supervisor = new Supervisor(config, serverCommand());
  const shutdown = async (signal: string) => {
    process.stderr.write(`${signal}: shutting down ${config.processes} processes\n`);
    await supervisor.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGUSR2", () => void supervisor.restart());
  await supervisor.start();
}

/**
 * Migrates older data before `command` runs, unless a server runs on it: a second `warren serve` is refused
 * before it touches the data, and a migration under running processes (a server process of a supervisor in
 * a rolling restart, or a command beside a running server) is refused rather than done under their feet.
 */
async function upgradeFirst(command: string) {
  const { dataDir, processes } = loadConfig();
  const supervised = process.env[PROCESS_INDEX_ENV] !== undefined;
  const supervisor = command === "serve" && !supervised && processes > 1;
  if (command === "serve" && !supervised) refuseIfServed(dataDir);
  await upgradeDataDir(dataDir, undefined, { refuseOlder: supervised || runningServerPid(dataDir) !== null, create: supervisor });
}

async function main(argv: string[]) {
  const [command = "serve", ...rest] = argv;
  // A lone server's ids differ from those of the CLI commands run beside it (each claims a tag of its own);
  // a supervisor's processes get theirs from it.
  if (command === "serve") process.env[ID_TAG_ENV] ??= "1";
  try {
    if (!LEAVE_DATA_AS_IS.has(command)) await upgradeFirst(command);
    if (command !== "serve" && !LEAVE_DATA_AS_IS.has(command)) process.env[ID_TAG_ENV] ??= String(claimCliIdTag(loadConfig().dataDir));
    if (command === "serve") return await serve();
    // The CLI's words load their modules (Fedify's among them) only when one is run: `serve` starts without them.
    const { runCli } = await import("./cli/index.ts");
    process.exitCode = await runCli(command, rest);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exit(1);
    }
    if (error instanceof DataFormatError || error instanceof ServedElsewhereError) {
      process.stderr.write(`warren: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

await main(process.argv.slice(2));
