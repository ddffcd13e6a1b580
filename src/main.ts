#!/usr/bin/env bun
// CLI entry, with tootctl's words: `serve`, `accounts …`, `settings …`, `cache …`.
import { ConfigError, loadConfig } from "./config.ts";
import { startServer } from "./server.ts";
import { runCli } from "./cli/index.ts";

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
    if (command === "serve") return await serve();
    process.exitCode = await runCli(command, rest);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

await main(process.argv.slice(2));
